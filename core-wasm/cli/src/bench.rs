//! `ftl bench`: times the engine natively on a trace file. Parsing and set-up are not timed;
//! only stepping the simulation through the whole trace is. `scripts/bench.mjs` runs this and
//! the same work on the wasm build in Node and prints the comparison.

use std::sync::Arc;
use std::time::Instant;

use ftl_engine::Sim;
use serde_json::json;

use crate::args::Args;
use crate::run::config_for;
use crate::select;

/// `ftl bench --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--set K=V ...]
/// [--repeat N]`: prints one JSON line per scheme: `{scheme, config, page_ops, flash_ops,
/// seconds, cpu_seconds, page_ops_per_sec, flash_ops_per_sec, peak_rss_bytes}`. `flash_ops`
/// counts the simulated flash operations (page reads, programs, erases, OOB reads): the work
/// every scheme does, whatever its host requests cost it. `peak_rss_bytes` is the process's
/// peak resident memory so far (Linux; `null` elsewhere): run one scheme per process to get
/// that scheme's. `cpu_seconds` (the thread's time on a CPU, `null` where
/// the OS does not say) is what to compare on a busy machine, where wall time includes
/// waiting for a core. With `--repeat N` each scheme runs N times from a fresh simulation and
/// the best wall and CPU times are kept (the wasm side of `scripts/bench.mjs` does the same),
/// so one run slowed by other work on the machine does not decide the figure.
pub fn bench(argv: &[String]) -> Result<(), String> {
    let flags: Vec<&str> = ["trace", "scheme", "preset", "set", "format", "repeat"]
        .into_iter()
        .chain(select::FLAGS.iter().copied())
        .collect();
    let args = Args::parse(argv, &flags, select::SWITCHES)?;
    let path = args.one("trace").ok_or("ftl: bench needs --trace FILE")?;
    let repeat =
        match args.one("repeat") {
            None => 1,
            Some(n) => n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                format!("ftl: bench --repeat must be a whole number of at least 1, not '{n}'")
            })?,
        };
    let schemes = args.all("scheme");
    let configs: Vec<_> =
        schemes.iter().map(|s| config_for(s, args.one("preset"), args.all("set"))).collect();
    let (options, max) = (select::parse_options(&args)?, select::max_requests(&args)?);
    let workloads = crate::input::load_workloads(path, args.one("format"), &options, max, &configs)?;
    for ((scheme, config), workload) in schemes.iter().zip(configs).zip(workloads) {
        let config = config?;
        let workload = workload.map_err(|e| e.replacen("ftl: ", &format!("ftl: {scheme}: "), 1))?;
        let (mut seconds, mut cpu) = (f64::INFINITY, None::<f64>);
        let mut last = None;
        for _ in 0..repeat {
            let mut sim = Sim::with_workload(config.clone(), Arc::clone(&workload), path)
                .map_err(|e| format!("ftl: {scheme}: {e}"))?;
            let (start, cpu_start) = (Instant::now(), cpu_seconds());
            sim.step(usize::MAX).map_err(|e| format!("ftl: {scheme}: {e}"))?;
            seconds = seconds.min(start.elapsed().as_secs_f64());
            if let Some(c) = cpu_start.zip(cpu_seconds()).map(|(a, b)| b - a) {
                cpu = Some(cpu.map_or(c, |best| best.min(c)));
            }
            last = Some(sim);
        }
        let sim = last.expect("repeat is at least 1");
        let m = sim.metrics();
        let page_ops = m.requests.pages_read + m.requests.pages_written + m.requests.pages_trimmed;
        let flash_ops = m.flash.page_reads + m.flash.page_writes + m.flash.erases + m.flash.oob_reads;
        let line = json!({
            "scheme": scheme,
            "config": config,
            "requests": m.requests_done,
            "page_ops": page_ops,
            "seconds": seconds,
            "cpu_seconds": cpu,
            "page_ops_per_sec": page_ops as f64 / seconds,
            "flash_ops": flash_ops,
            "flash_ops_per_sec": flash_ops as f64 / seconds,
            "peak_rss_bytes": peak_rss_bytes(),
            "state_hash": format!("{:016x}", sim.state_hash()),
        });
        println!("{line}");
    }
    Ok(())
}

/// Peak resident memory of this process in bytes (Linux: `VmHWM` in /proc/self/status).
fn peak_rss_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// CPU time this thread has run, in seconds (Linux: /proc/thread-self/schedstat).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}
