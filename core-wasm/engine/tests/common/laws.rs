//! Conservation laws of the metrics: totals that must equal the sums of their splits, copies
//! and erases that must match their causes, distributions in order. A counter that drifts
//! from another (an operation counted in one place and not the other) fails here, whatever
//! the scheme. Numbered L1 to L13 as first listed; L9 (write response at least one program),
//! L10 (service time = count x latency) and L12 (time at least busy time) are not checked here.

use ftl_engine::Sim;
use serde_json::Value;

const OPS: [&str; 4] = ["page_reads", "page_writes", "oob_reads", "erases"];

/// What the laws need from before the run: the wear the device already had.
pub struct Laws {
    erases_before: u64,
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn sum<'a>(items: impl Iterator<Item = &'a Value>, op: &str) -> u64 {
    items.map(|v| n(&v[op])).sum()
}

fn values(v: &Value) -> impl Iterator<Item = &Value> {
    v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).values()
}

impl Laws {
    /// Takes what the laws compare against, once the simulation is built (after pre-fill).
    pub fn start(sim: &Sim) -> Laws {
        Laws { erases_before: erase_sum(sim) }
    }

    /// Checks every law on `sim`'s metrics; panics naming the law and `label`.
    pub fn check(&self, sim: &Sim, label: &str) {
        let m = serde_json::to_value(sim.metrics()).unwrap();
        let law = |ok: bool, what: &str| assert!(ok, "{label}: {what}");
        let flash = &m["flash"];

        // L1: each total is the sum over purposes; L1b: and over what the pages held (erased
        // pages included), purpose by purpose.
        for op in OPS {
            let by_purpose = sum(values(&flash["by_purpose"]), op);
            law(
                n(&flash[op]) == by_purpose,
                &format!("L1 flash.{op} {} != sum by purpose {by_purpose}", flash[op]),
            );
            let by_kind = sum(values(&flash["by_kind"]), op);
            law(n(&flash[op]) == by_kind, &format!("L1b flash.{op} {} != sum by kind {by_kind}", flash[op]));
            for (purpose, counts) in flash["by_purpose"].as_object().unwrap() {
                let kinds: u64 = values(&flash["by_kind"]).map(|k| n(&k["by_purpose"][purpose][op])).sum();
                law(
                    n(&counts[op]) == kinds,
                    &format!("L1b {purpose}.{op} {} != sum by kind {kinds}", counts[op]),
                );
            }
        }

        // L2: every host page written is programmed once as data, log or buffer page; a
        // scheme that buffers pages in RAM may program fewer (overwrites absorbed).
        let p = &flash["by_purpose"];
        let host_programs =
            n(&p["data"]["page_writes"]) + n(&p["log"]["page_writes"]) + n(&p["buffer"]["page_writes"]);
        let written = n(&m["requests"]["pages_written"]);
        if m["buffer"].is_null() {
            law(
                host_programs == written,
                &format!("L2 data+log+buffer programs {host_programs} != host pages written {written}"),
            );
        } else {
            law(
                host_programs <= written,
                &format!("L2 data+log+buffer programs {host_programs} > host pages written {written}"),
            );
        }

        // L3: GC and merge programs are the valid pages they copied plus the translation
        // pages GC's batch updates write (plus the padding an in-order merge programs);
        // merge programs are the merges' copies and padding, and (L3b) merge erases the
        // merges' erases.
        let gc = &m["gc"];
        let batch = m["translation_pages"]["writes"]["gc_batch_update"].as_u64().unwrap_or(0);
        let moved = n(&p["gc"]["page_writes"]) + n(&p["merge"]["page_writes"]);
        let log = &gc["log_blocks"];
        let padding = log["padding_pages"].as_u64().unwrap_or(0);
        law(
            moved == n(&gc["valid_copies"]) + batch + padding,
            &format!(
                "L3 GC + merge programs {moved} != copies {} + batch updates {batch} + padding {padding}",
                gc["valid_copies"]
            ),
        );
        let (copies, erases) = if log.is_null() {
            (0, 0)
        } else {
            (values(&log["merge_copies"]).map(n).sum(), values(&log["merge_erases"]).map(n).sum())
        };
        law(
            n(&p["merge"]["page_writes"]) == copies + padding,
            &format!(
                "L3 merge programs {} != merge copies {copies} + padding {padding}",
                p["merge"]["page_writes"]
            ),
        );
        law(
            n(&p["merge"]["erases"]) == erases,
            &format!("L3b merge erases {} != by merge kind {erases}", p["merge"]["erases"]),
        );

        // L4: translation-purpose programs are the translation-page writes not made by GC;
        // translation and DTP pages programmed are all of them.
        if let Some(writes) = m["translation_pages"]["writes"].as_object() {
            let all: u64 = writes.values().map(n).sum();
            let by_gc = n(&writes["gc_batch_update"]) + n(&writes["gc_copy"]);
            let purpose = n(&p["translation"]["page_writes"]);
            law(
                purpose == all - by_gc,
                &format!(
                    "L4 translation programs {purpose} != non-GC translation-page writes {}",
                    all - by_gc
                ),
            );
            let kinds = n(&flash["by_kind"]["translation"]["page_writes"])
                + n(&flash["by_kind"]["dtp"]["page_writes"]);
            law(
                kinds == all,
                &format!("L4 translation + DTP pages programmed {kinds} != translation-page writes {all}"),
            );
        }

        // L5: no page is programmed twice between erases.
        let flash_array = sim.device().flash();
        let (blocks, ppb) = (u64::from(flash_array.blocks()), u64::from(flash_array.pages_per_block()));
        let programs = n(&flash["page_writes"]);
        law(
            programs <= blocks * ppb + n(&flash["erases"]) * ppb,
            &format!("L5 {programs} programs on {} pages with {} erases", blocks * ppb, flash["erases"]),
        );

        // L6: the blocks' wear grew by the erases the run counted (pre-fill wear is before).
        let wear = erase_sum(sim) - self.erases_before;
        law(
            wear == n(&flash["erases"]),
            &format!("L6 wear grew by {wear}, flash.erases is {}", flash["erases"]),
        );

        // L7: WAF is programs per host page written.
        let waf = if written == 0 { 0.0 } else { programs as f64 / written as f64 };
        law(
            (f(&m["waf"]) - waf).abs() <= 1e-9 * waf.max(1.0),
            &format!("L7 waf {} != {programs} / {written}", m["waf"]),
        );

        // L8: distributions in order.
        for (name, d) in [
            ("all", &m["response_us"]),
            ("read", &m["response_by_op_us"]["read"]),
            ("write", &m["response_by_op_us"]["write"]),
        ] {
            if n(&d["count"]) == 0 {
                continue;
            }
            let q: Vec<f64> = ["min", "p50", "p90", "p99", "p999", "max"].iter().map(|k| f(&d[k])).collect();
            law(q.windows(2).all(|w| w[0] <= w[1]), &format!("L8 {name} quantiles out of order: {q:?}"));
            let mean = f(&d["mean"]);
            law(
                q[0] <= mean + 1e-6 && mean <= q[5] + 1e-6,
                &format!("L8 {name} mean {mean} outside [{}, {}]", q[0], q[5]),
            );
        }
        let cdf = m["response_cdf_us"].as_array().unwrap();
        law(
            cdf.windows(2).all(|w| f(&w[0]["p"]) <= f(&w[1]["p"]) && f(&w[0]["us"]) <= f(&w[1]["us"])),
            "L8 response CDF not monotone",
        );

        // L11: every request served is one read, write or trim, with one response.
        let r = &m["requests"];
        let done = n(&m["requests_done"]);
        law(
            n(&r["reads"]) + n(&r["writes"]) + n(&r["trims"]) == done,
            &format!("L11 reads+writes+trims != {done} requests done"),
        );
        law(
            n(&m["response_us"]["count"]) == done,
            &format!("L11 {} responses for {done} requests", m["response_us"]["count"]),
        );
        law(
            n(&m["response_by_op_us"]["read"]["count"]) == n(&r["reads"])
                && n(&m["response_by_op_us"]["write"]["count"]) == n(&r["writes"]),
            "L11 responses by op != requests by op",
        );

        // L13: the series moves forward, free blocks within the device, utilization at most 1.
        let series = m["series"].as_array().unwrap();
        law(
            series.windows(2).all(|w| {
                n(&w[0]["requests_done"]) < n(&w[1]["requests_done"])
                    && f(&w[0]["sim_time_us"]) <= f(&w[1]["sim_time_us"])
            }),
            "L13 series not moving forward",
        );
        law(series.iter().all(|s| n(&s["free_blocks"]) <= blocks), "L13 more free blocks than blocks");
        let u = &m["utilization"];
        for k in ["at_end", "peak", "device_peak"] {
            law((0.0..=1.0).contains(&f(&u[k])), &format!("L13 utilization.{k} = {} outside [0, 1]", u[k]));
        }
    }
}

fn erase_sum(sim: &Sim) -> u64 {
    sim.device().flash().erase_counts().iter().map(|&e| u64::from(e)).sum()
}
