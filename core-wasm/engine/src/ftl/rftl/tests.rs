//! RFTL on the thesis' worked example (Fig 4.5) and its bounds.

use super::*;
use crate::config::{Latencies, SimConfig};
use crate::flash::FlashArray;
use crate::presets;

const US: u64 = 1_000;

/// Timings that give Fig 4.5's β = 4 and k = 3 with 8-page blocks: c = 25 + 300 + 2·50 =
/// 425 µs, t = T_er = 2000 µs, β = ⌊2000/425⌋ = 4, k = ⌈8/4⌉ + 1 = 3, j = ⌈3/4⌉ + 1 = 2.
fn fig_4_5_latencies() -> Latencies {
    Latencies {
        page_read_ns: 25 * US,
        oob_read_ns: 50 * US,
        program_ns: 300 * US,
        erase_ns: 2000 * US,
        ..Latencies::default()
    }
}

/// 12 blocks of 8 pages, 24 logical pages (3 logical blocks, 9 blocks reserved for them).
fn fig_config() -> SimConfig {
    let mut c = SimConfig::default();
    (c.device.blocks, c.device.pages_per_block, c.device.over_provisioning) = (12, 8, 0.75);
    c.device.latency = fig_4_5_latencies();
    c
}

fn setup(config: &SimConfig, options: serde_json::Value) -> (Rftl, Device) {
    let d = &config.device;
    let o: RftlOptions = crate::ftl::parse_options("rftl", &options).unwrap();
    let ftl = Rftl::new(&BuildCtx::of(config), &o).unwrap();
    let dev = Device::new(
        FlashArray::new(d.blocks, d.pages_per_block, d.cell).with_sizes(d.page_bytes, d.oob_bytes),
        d.latency.clone(),
        true,
    );
    (ftl, dev)
}

/// Writes `lpn` and returns (the block it went to, the request's cost in µs, GC copies and
/// erases it made).
fn w(ftl: &mut Rftl, dev: &mut Device, lpn: u32, v: &mut u32) -> (BlockId, u64, u64, u64) {
    *v += 1;
    dev.cost = Default::default();
    let (copies, erases) = (dev.stats.gc_valid_copies, dev.counters.erases.iter().sum::<u64>());
    ftl.write(lpn, *v, dev).unwrap();
    ftl.check(dev).unwrap();
    let at = ftl.map.peek(dev, lpn).unwrap();
    (
        dev.flash().block_of(at),
        dev.cost.total_ns() / US,
        dev.stats.gc_valid_copies - copies,
        dev.counters.erases.iter().sum::<u64>() - erases,
    )
}

#[test]
fn fig_4_5_lifecycle_with_beta_4_and_k_3() {
    let (mut ftl, mut dev) = setup(&fig_config(), json!({"reserve": "checked"}));
    let b = *ftl.bounds();
    assert_eq!((b.beta, b.k, b.j, b.period_ns / US), (4, 3, 2, 2350));
    let mut v = 0;
    // Fill the primary: 0..5, then 0 and 1 again, so 6 of its 8 pages are valid.
    for lpn in [0, 1, 2, 3, 4, 5, 0, 1] {
        w(&mut ftl, &mut dev, lpn, &mut v);
    }
    let g = ftl.groups[0].clone();
    assert_eq!((g.r, g.b, g.gc), (NO_BLOCK, NO_BLOCK, None), "no collection while the primary has room");
    let first_p = g.p;

    // (a) The primary is full: w0 goes to the buffer's first page, then copy0 moves 4 valid pages.
    let (at, us, copies, erases) = w(&mut ftl, &mut dev, 6, &mut v);
    let g = ftl.groups[0].clone();
    assert_eq!(at, g.b);
    assert_eq!(g.gc.unwrap().kind, Kind::Primary);
    assert_eq!((copies, erases, us), (4, 0, 350 + 4 * 425), "U(e_w) + β copies");
    assert_eq!(dev.flash().programmed_count(g.r), 4);
    // (b) w1 to the buffer, copy1 moves the remaining 2.
    let (at, us, copies, _) = w(&mut ftl, &mut dev, 7, &mut v);
    assert_eq!((at, copies, us), (g.b, 2, 350 + 2 * 425));
    // w2 to the buffer, then the primary is erased: the longest request, L(p).
    let (at, us, copies, erases) = w(&mut ftl, &mut dev, 6, &mut v);
    assert_eq!((at, copies, erases, us), (g.b, 0, 1, 2350));
    assert_eq!(us * US, b.period_ns);
    // Exchange: the replacement (6 copies) is the primary now; the erased block is free.
    let g2 = ftl.groups[0].clone();
    assert_eq!((g2.p, g2.b, g2.r, g2.gc), (g.r, g.b, NO_BLOCK, None));
    assert_eq!(dev.flash().programmed_count(first_p), 0);
    assert_eq!(ftl.block_role(first_p, &dev), BlockRole::Free);

    // (b)–(c) w3, w4 fill the primary; w5, w6 go to the buffer, which then has k = 3 free pages.
    for (lpn, want) in [(2, g2.p), (3, g2.p), (4, g2.b), (5, g2.b)] {
        let (at, us, copies, _) = w(&mut ftl, &mut dev, lpn, &mut v);
        assert_eq!((at, us, copies), (want, 350, 0), "LPN {lpn}: no GC yet (postponed)");
    }
    assert_eq!(dev.flash().programmed_count(g2.b), 5);

    // (d) w7: the buffer has only k free pages, so the primary and the buffer's first 5 pages
    // are collected into a (new) replacement, interleaved with w7, w8, w9 in the buffer.
    let (at, _, copies, _) = w(&mut ftl, &mut dev, 0, &mut v);
    let g3 = ftl.groups[0].clone();
    assert_eq!(g3.gc.unwrap().kind, Kind::Merge);
    assert_eq!((at, copies), (g2.b, 4), "LPNs 1, 2, 3 of the primary and 7 of the buffer");
    let (at, _, copies, _) = w(&mut ftl, &mut dev, 7, &mut v);
    assert_eq!((at, copies), (g2.b, 3), "LPNs 6, 4, 5 of the buffer (7 was just rewritten)");
    let (at, us, copies, erases) = w(&mut ftl, &mut dev, 6, &mut v);
    assert_eq!((at, copies, erases, us), (g2.b, 0, 1, 2350), "the buffer is full and the primary erased");

    // (e)–(f) Circular shift: erased primary → buffer, buffer → replacement, replacement → primary.
    let g4 = ftl.groups[0].clone();
    assert_eq!((g4.p, g4.r, g4.b), (g3.r, g2.b, g2.p));
    assert_eq!(g4.gc.unwrap().kind, Kind::Replacement);
    assert_eq!(dev.flash().valid_count(g4.r), 3, "the k pages written during the collection");
    assert_eq!(
        (ftl.block_role(g4.p, &dev), ftl.block_role(g4.r, &dev), ftl.block_role(g4.b, &dev)),
        (BlockRole::Primary, BlockRole::Replacement, BlockRole::Buffer)
    );
    // (g) j = 2 steps: w10 then its 3 copies into the buffer; w11 then the erase.
    let (at, us, copies, _) = w(&mut ftl, &mut dev, 1, &mut v);
    assert_eq!((at, copies, us), (g4.b, 3, 350 + 3 * 425));
    let (at, us, copies, erases) = w(&mut ftl, &mut dev, 2, &mut v);
    assert_eq!((at, copies, erases, us), (g4.b, 0, 1, 2350));
    let g5 = ftl.groups[0].clone();
    assert_eq!((g5.p, g5.r, g5.b, g5.gc), (g4.p, NO_BLOCK, g4.b, None));
    // The primary serves requests again while it has free pages.
    let (at, us, _, _) = w(&mut ftl, &mut dev, 3, &mut v);
    assert_eq!((at, us), (g5.p, 350));

    // Every page reads back its newest version at T_rdoob + T_rdpg.
    let newest = [(0, 16), (1, 19), (2, 20), (3, 21), (4, 14), (5, 15), (6, 18), (7, 17)];
    for (lpn, version) in newest {
        dev.cost = Default::default();
        assert_eq!(ftl.read(lpn, &mut dev).unwrap(), Some(PageTag::data(lpn, version)), "LPN {lpn}");
        assert_eq!(dev.cost.total_ns(), 75 * US);
    }
}

/// Fig 4.5 again, as the block under the pointer tells it: each block's role for logical
/// block 0 and that block's GC state after each step, (a) through (g).
#[test]
fn fig_4_5_roles_and_gc_state_step_by_step() {
    let (mut ftl, mut dev) = setup(&fig_config(), json!({"reserve": "checked"}));
    let mut v = 0;
    let duty = |ftl: &Rftl, dev: &Device, b: BlockId| {
        let d = ftl.block_duty(b, dev).expect("a held block has a duty");
        assert_eq!(d.lbn, Some(0));
        (d.role, d.gc.unwrap())
    };
    for lpn in [0, 1, 2, 3, 4, 5] {
        w(&mut ftl, &mut dev, lpn, &mut v);
    }
    let p = ftl.groups[0].p;
    assert_eq!(duty(&ftl, &dev, p), ("primary".into(), "idle: writes go to the primary".into()));
    for lpn in [0, 1] {
        w(&mut ftl, &mut dev, lpn, &mut v);
    }
    assert_eq!(duty(&ftl, &dev, p).1, "idle, primary full: the next write starts a collection");
    // (a) w0, then copy0 (4 of the 6 valid pages): three steps planned, the erase last.
    w(&mut ftl, &mut dev, 6, &mut v);
    let g = ftl.groups[0].clone();
    let a = "collecting the primary into the replacement (Fig 4.5 a)";
    assert_eq!(
        duty(&ftl, &dev, g.p),
        ("primary".into(), format!("{a}: 1 of 3 steps done, next: copy 2 of 2 valid pages left"))
    );
    assert_eq!(duty(&ftl, &dev, g.r).0, "replacement");
    assert_eq!(duty(&ftl, &dev, g.b).0, "buffer");
    w(&mut ftl, &mut dev, 7, &mut v);
    assert_eq!(duty(&ftl, &dev, g.r).1, format!("{a}: 2 of 3 steps done, next: erase, then exchange"));
    // (b) The erase and the exchange: the old replacement is the primary, the old primary free.
    w(&mut ftl, &mut dev, 6, &mut v);
    assert_eq!(ftl.block_duty(g.p, &dev), None, "the erased primary went back to the pool");
    assert_eq!(duty(&ftl, &dev, g.r), ("primary".into(), "idle: writes go to the primary".into()));
    // (c) The primary fills; the buffer takes writes until it has k = 3 free pages.
    for lpn in [2, 3, 4] {
        w(&mut ftl, &mut dev, lpn, &mut v);
    }
    assert_eq!(
        duty(&ftl, &dev, g.b).1,
        "idle, primary full: the next write starts a collection when the buffer has k = 3 free pages left (it has 4)"
    );
    w(&mut ftl, &mut dev, 5, &mut v);
    // (d) Primary and buffer into a new replacement, interleaved with writes to the buffer.
    w(&mut ftl, &mut dev, 0, &mut v);
    let d = "collecting the primary and the buffer into the replacement (Fig 4.5 d)";
    assert_eq!(
        duty(&ftl, &dev, g.b),
        ("buffer".into(), format!("{d}: 1 of 3 steps done, next: copy 3 of 3 valid pages left"))
    );
    w(&mut ftl, &mut dev, 7, &mut v);
    assert_eq!(duty(&ftl, &dev, g.b).1, format!("{d}: 2 of 3 steps done, next: erase, then circular shift"));
    // (e) Circular shift: the old buffer is the replacement, the erased primary the buffer;
    // (f) the replacement is collected into the buffer.
    w(&mut ftl, &mut dev, 6, &mut v);
    let g4 = ftl.groups[0].clone();
    let f = "collecting the replacement into the buffer (Fig 4.5 f)";
    assert_eq!(
        duty(&ftl, &dev, g.b),
        ("replacement".into(), format!("{f}: 0 of 2 steps done, next: copy 3 of 3 valid pages left"))
    );
    assert_eq!(duty(&ftl, &dev, g4.b).0, "buffer");
    assert_eq!(duty(&ftl, &dev, g4.p).0, "primary");
    w(&mut ftl, &mut dev, 1, &mut v);
    assert_eq!(duty(&ftl, &dev, g4.r).1, format!("{f}: 1 of 2 steps done, next: erase"));
    // (g) Idle again; the primary serves writes.
    w(&mut ftl, &mut dev, 2, &mut v);
    assert_eq!(duty(&ftl, &dev, g4.p), ("primary".into(), "idle: writes go to the primary".into()));
}

/// Table 4.4 / Theorem 4.3.1: with the reserve kept, no request of a random stream of
/// reads and writes over the thesis' device exceeds L(p) = 2,325 µs; reads always cost 50 µs,
/// writes at least 325 µs once their sub-table is on flash.
#[test]
fn random_requests_never_exceed_the_bound_with_the_reserve_checked() {
    let mut config = presets::config("thesis-rftl").unwrap();
    (config.device.blocks, config.device.over_provisioning) = (96, 0.67);
    let (mut ftl, mut dev) = setup(&config, json!({"reserve": "checked"}));
    assert_eq!(ftl.bounds().period_ns, 2_325 * US);
    let pages = config.device.logical_pages() as u32;
    let (mut worst, mut best_write, mut v) = (0, u64::MAX, 0);
    let mut rng = crate::test_rng::Rng(12345);
    let mut next = |n: u32| rng.below(u64::from(n)) as u32;
    let mut written = vec![0u32; pages as usize];
    for i in 0..20_000 {
        // Hot pages in a few logical blocks, so collections run often.
        let lpn = if next(4) == 0 { next(pages) } else { next(64) };
        dev.cost = Default::default();
        if next(3) == 0 && written[lpn as usize] != 0 {
            assert_eq!(ftl.read(lpn, &mut dev).unwrap(), Some(PageTag::data(lpn, written[lpn as usize])));
            assert_eq!(dev.cost.total_ns(), 50 * US, "read {i}");
        } else {
            let fresh = ftl.map.pointer(lpn / 32, (lpn % 32) / ftl.map.slots()).is_none();
            v += 1;
            ftl.write(lpn, v, &mut dev).unwrap();
            written[lpn as usize] = v;
            if !fresh {
                best_write = best_write.min(dev.cost.total_ns());
            }
        }
        worst = worst.max(dev.cost.total_ns());
        if i % 500 == 0 {
            ftl.check(&dev).unwrap();
        }
    }
    assert!(dev.stats.gc_runs > 100, "collections ran: {}", dev.stats.gc_runs);
    assert_eq!(worst, 2_325 * US, "the worst case reaches the bound and never passes it");
    assert_eq!(best_write, 325 * US);
    assert_eq!(ftl.overruns, 0);
    ftl.check(&dev).unwrap();
}

/// Theorem 4.3.1's reserve checked at build time: too few blocks for three per logical
/// block, or blocks too small for 2k + j buffer pages, are refused with the numbers.
#[test]
fn a_device_without_the_reserve_is_refused_when_checked() {
    let checked = json!({"reserve": "checked"});
    let build = |c: &SimConfig| {
        let o: RftlOptions = crate::ftl::parse_options("rftl", &checked).unwrap();
        Rftl::new(&BuildCtx::of(c), &o).map(|_| ()).unwrap_err().to_string()
    };
    let mut c = fig_config();
    c.device.over_provisioning = 0.5; // 48 logical pages = 6 logical blocks, 18 blocks needed
    let e = build(&c);
    assert!(e.contains("three blocks") && e.contains("18") && e.contains("12"), "{e}");
    let mut c = fig_config();
    c.device.pages_per_block = 4; // k = 2, j = 2: 2k + j = 6 > 4
    c.device.blocks = 24;
    let e = build(&c);
    assert!(e.contains("2k + j = 6") && e.contains("4 pages"), "{e}");
    // The same devices run best effort.
    let o = RftlOptions::default();
    assert!(Rftl::new(&BuildCtx::of(&c), &o).is_ok());
}

/// Best effort on a device with fewer blocks than three per logical block: every page is
/// kept, and the collections that had to run at once are counted as overruns.
#[test]
fn best_effort_keeps_every_page_on_a_small_device_and_counts_overruns() {
    let mut c = fig_config();
    c.device.over_provisioning = 0.25; // 72 logical pages = 9 logical blocks on 12 blocks
    let (mut ftl, mut dev) = setup(&c, json!({}));
    let mut written = [0u32; 72];
    let mut v = 0;
    for i in 0..3000u32 {
        let lpn = (i * 37 + i / 7) % 72;
        v += 1;
        ftl.write(lpn, v, &mut dev).unwrap();
        written[lpn as usize] = v;
        ftl.check(&dev).unwrap();
    }
    for (lpn, &version) in written.iter().enumerate() {
        assert_eq!(ftl.read(lpn as u32, &mut dev).unwrap(), Some(PageTag::data(lpn as u32, version)));
    }
    assert!(ftl.overruns > 0);
}

/// The bound each scheme reports for the response chart: RFTL's and GFTL's L(p) of Table
/// 4.2 on the thesis' device with π = 64 (2,325 and 3,625 µs; GFTL's read scans π spare
/// areas, so its bound grows with π); a scheme without a bound reports none.
/// `thesis-rftl` replays requests once per RFTL's L(p) (thesis §4.4), computed by the
/// scheme on the preset's own device and at the other block sizes Ch. 4 varies.
#[test]
fn the_real_time_preset_arrives_once_per_rftls_bound() {
    let preset = presets::config("thesis-rftl").unwrap();
    for ppb in [32, 64, 128] {
        let mut c = preset.clone();
        (c.scheme, c.device.pages_per_block, c.device.over_provisioning) = ("rftl".into(), ppb, 0.67);
        crate::ftl::resolve_options(&mut c).unwrap();
        let bound_ns = (crate::ftl::build(&c).unwrap().response_bound_us().unwrap() * 1_000.0).round() as u64;
        assert_eq!(preset.timing, crate::config::TimingMode::Periodic(bound_ns), "π = {ppb}");
    }
    // Presets the sources give no arrivals for keep the trace's timestamps.
    assert_eq!(presets::config("thesis-mnftl").unwrap().timing, crate::config::TimingMode::Trace);
}

#[test]
fn schemes_report_their_table_4_2_bound() {
    let bound = |scheme: &str| {
        let mut c = presets::config("thesis-rftl").unwrap();
        c.scheme = scheme.into();
        c.options = serde_json::Value::Null;
        c.device.over_provisioning = 0.5; // room for GFTL's buffer
        c.device.pages_per_block = 64;
        crate::ftl::resolve_options(&mut c).unwrap();
        crate::ftl::build(&c).unwrap().response_bound_us()
    };
    assert_eq!(bound("rftl"), Some(2_325.0));
    assert_eq!(bound("gftl"), Some(3_625.0));
    assert_eq!(bound("page"), None);
}
