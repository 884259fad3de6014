//! Thesis (seed 002) Ch. 3, Figs 3.8–3.10: MNFTL against page mapping, DFTL, SFTL and GFTL on the thesis' MLC part (only the text's numbers survive: the figures are missing).

use super::{Axis, Experiment, ExperimentTrace, Measure, Reported, Scope, Series, TraceSource};
use crate::trace::generate::standins::StandIn;
use crate::trace::generate::GenParams;

/// Requests per stand-in (the thesis' Systemdisk traces have 1.0–2.6 M; scaled so the
/// experiment runs in about half a minute).
const COUNT: u64 = 100_000;
/// The stand-ins' footprint: most of the 204.8 MiB logical space of the device below (the
/// thesis replays its traces over "a portion of flash as the active region"), fixed before
/// any run.
const SPACE: u64 = 160 << 20;

fn standin(s: StandIn, seed: u64) -> GenParams {
    GenParams { address_space: SPACE, ..s.params(COUNT, seed) }
}

fn systemdisk1() -> GenParams {
    standin(StandIn::Systemdisk1, 31)
}
fn systemdisk2() -> GenParams {
    standin(StandIn::Systemdisk2, 32)
}
fn systemdisk3() -> GenParams {
    standin(StandIn::Systemdisk3, 33)
}

const TRACES: &[ExperimentTrace] = &[
    ExperimentTrace::stand_in("systemdisk1", systemdisk1, "SYNTHETIC STAND-IN for Table 3.1 Systemdisk1 (DiskMon, private): 74.04 % writes, mean 42.65 KB; 100,000 requests of geometric sizes, 82.7 % sequential (the DiskMon mean), uniform jumps over 160 MiB (seed 31)"),
    ExperimentTrace::stand_in("systemdisk2", systemdisk2, "SYNTHETIC STAND-IN for Systemdisk2: 61.96 % writes, mean 44.10 KB; 100,000 requests, 160 MiB (seed 32)"),
    ExperimentTrace::stand_in("systemdisk3", systemdisk3, "SYNTHETIC STAND-IN for Systemdisk3: 58.10 % writes, mean 36.72 KB; 100,000 requests, 160 MiB (seed 33)"),
    ExperimentTrace {
        id: "websearch",
        source: TraceSource::Shipped("mqsim_wsrch-small_websearch.trace"),
        max_requests: None,
        stands_in_for: "REAL EXCERPT of the thesis' Websearch (SPC, read-dominant): 24,783 requests, almost all reads; no GC happens on it, so it is behind only the read-path rows",
        carries_effect: false,
    },
];

const fn below(
    what: &'static str,
    metric: &'static str,
    other: &'static str,
    paper: (f64, f64),
    on: &'static str,
    why_not: &'static str,
) -> Reported {
    Reported {
        what,
        metric,
        scheme: "mnftl",
        measure: Measure::ReductionVs(other),
        scope: Scope::EachTrace,
        values: &[0],
        paper,
        paper_on: on,
        factor: None,
        why_not,
    }
}

/// Measured on the stand-ins, not a departure from the thesis' rules.
const WHY_NOT_COPIES: &str = "measured: MNFTL's victims still hold 72–78 of their 128 pages valid (1.96 M copies over 27,381 erases on systemdisk1) against DFTL's 18–24 (0.50 M over 27,776): every logical block the stand-in writes keeps a partly written last block of its own (the 160 MiB footprint is 640 logical blocks, on a device with 205 blocks beyond its logical space), so the free blocks run out, and GC starts, while the victims are still mostly valid. The thesis does not state its active region (\"a portion of flash\").";

const WHY_NOT_ERASES: &str = "measured: MNFTL erases 27,381 / 24,331 / 20,444 blocks on systemdisk1–3 against DFTL's 27,776 / 24,702 / 20,005: its victims hold 72–78 valid pages of 128 (DFTL's 18–24), so each erase frees few pages and MNFTL needs about as many as DFTL, more on systemdisk3 (see the copies row for why its victims are so full).";

/// Figs 3.8–3.10.
pub const MNFTL_FIGS: Experiment = Experiment {
    name: "mnftl-figs-3-8-3-10",
    title: "Thesis Figs 3.8–3.10: MNFTL against page mapping, DFTL, SFTL and GFTL on MLC flash",
    source: "seed 002 (Qin's thesis) Ch. 3 §3.4, Figs 3.8–3.10",
    preset: "thesis-mnftl",
    sets: &["device.blocks=1024", "device.over_provisioning=0.2", "timing=\"closed\""],
    series: &[
        Series::plain("mnftl", "MNFTL"),
        Series::plain("page", "Page mapping (PFTL)"),
        Series::plain("dftl", "DFTL (64 KB of RAM)"),
        Series::plain("sftl", "SFTL (superblocks of 4 data + 2 log blocks, 256 log blocks)"),
        Series::plain("gftl", "GFTL (buffer of 16 % of the data blocks, Ch. 3)"),
    ],
    baseline: "dftl",
    traces: TRACES,
    axis: Axis::Param("ram_bytes"),
    values: "64KiB",
    over_time: &[],
    metrics: &["response_us.mean", "gc.valid_copies", "flash.erases", "flash.oob_reads"],
    differences: "Paper: the authors' MLC simulator, 8 GB (2 KB pages, 128-page blocks, 60 / 800 µs, 1.5 ms erase, 20 µs spare-area read, 5 µs per RAM table access), the six traces of Table 3.1 (1.0–4.3 M requests each: Financial1/2, Websearch, Systemdisk1–3). Ours: the thesis-mnftl preset on 1,024 blocks (256 MiB) with 20 % over-provisioning (not stated in the thesis), closed-loop arrivals (response = service time; the traces' timestamps are unpublished), three SYNTHETIC Systemdisk stand-ins of 100,000 requests each over 160 MiB (scaled from 1–2.6 M so the experiment runs in about 20 s) and the shipped Websearch excerpt; the Financial traces have no stand-in with Table 3.1's sizes and are left out. DFTL has 64 KB of RAM (its cache, as in the thesis), GFTL its Ch. 3 buffer (16 % of the data blocks). NFTL is not in the thesis' Ch. 3 comparison and cannot run on MLC (it programs pages at fixed block offsets, out of order), so it is not a series here.",
    reported: &[
        below("MNFTL mean response below DFTL", "response_us.mean", "dftl", (30.92, 30.92), "§3.4.2 and the abstract: average over six traces (§3.1 and §5.1 say 30.09 %)", ""),
        below("MNFTL mean response below SFTL", "response_us.mean", "sftl", (30.92, 100.0), "§3.4.2: larger gains than against DFTL (no number)", ""),
        below("MNFTL mean response below GFTL", "response_us.mean", "gftl", (30.92, 100.0), "§3.4.2: larger gains than against DFTL (no number)", ""),
        below("MNFTL valid-page copies below DFTL", "gc.valid_copies", "dftl", (69.78, 69.78), "§3.4.2, Fig 3.9: average over the traces", WHY_NOT_COPIES),
        below("MNFTL valid-page copies below SFTL", "gc.valid_copies", "sftl", (0.5, 100.0), "Fig 3.9: fewer than every other scheme's (no number in the text)", ""),
        below("MNFTL valid-page copies below GFTL", "gc.valid_copies", "gftl", (0.5, 100.0), "Fig 3.9: fewer than every other scheme's (no number in the text)", ""),
        below("MNFTL erases below DFTL", "flash.erases", "dftl", (33.35, 33.35), "§3.4.2, Fig 3.10: average over the traces", WHY_NOT_ERASES),
        below("MNFTL erases below SFTL", "flash.erases", "sftl", (0.5, 100.0), "Fig 3.10: fewer than every other scheme's (no number in the text)", ""),
        below("MNFTL erases below GFTL", "flash.erases", "gftl", (0.5, 100.0), "Fig 3.10: fewer than every other scheme's (no number in the text)", ""),
    ],
};
