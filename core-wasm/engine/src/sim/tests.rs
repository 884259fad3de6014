//! Unit tests of the simulation loop that reach into its private state.

use super::*;
use crate::hash::StateHasher;
use crate::trace::HostOp;
use crate::trace::Request;

#[test]
fn a_failed_invariant_stops_stepping_with_its_message() {
    // Review (engine-model) §4.9: the error was returned once, then stepping went on.
    let requests =
        (0..4).map(|i| Request { time_ns: 0, op: HostOp::Write, offset: i * 4096, size: 4096 }).collect();
    let mut sim = Sim::new(SimConfig::default(), &Trace { format: "t".into(), requests }, "t").unwrap();
    sim.set_check_every_step(true);
    sim.step(1).unwrap();
    // Lose LPN 0's only copy behind the scheme's back.
    sim.device.flash_mut().invalidate(0).unwrap();
    let first = sim.step(1).unwrap_err().to_string();
    assert!(first.contains("invariant violated") && first.contains("LPN 0"), "{first}");
    assert_eq!(sim.step(1).unwrap_err().to_string(), first, "no step after a failed check");
    assert_eq!(sim.cursor(), 2);
}

/// Review engine-model §4.5: a page lost where the trace never reads it again was invisible
/// outside tests; `verify` finds it, and leaves a good run untouched.
#[test]
fn verify_finds_a_page_the_trace_never_reads_again() {
    let requests: Vec<Request> =
        (0..8).map(|i| Request { time_ns: 0, op: HostOp::Write, offset: i * 4096, size: 4096 }).collect();
    for scheme in ["page", "dftl"] {
        let config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
        let mut sim =
            Sim::new(config, &Trace { format: "t".into(), requests: requests.clone() }, "t").unwrap();
        sim.step(8).unwrap();
        let hash = sim.state_hash();
        assert_eq!(sim.verify().unwrap(), 0, "{scheme}");
        assert_eq!(sim.state_hash(), hash, "{scheme}: verify works on a copy");
        assert_eq!(sim.metrics().integrity_errors, 0);
        sim.device.flash_mut().invalidate(0).unwrap();
        let e = sim.verify().unwrap_err().to_string();
        assert!(e.contains("LPN 0"), "{scheme}: {e}");
    }
}

/// A scheme that delegates to `page` and, when idle, erases nothing but records the idle
/// windows it was given and charges one RAM access (the idle hook).
#[derive(Debug, Clone)]
struct IdleProbe {
    inner: Box<dyn Ftl>,
    windows: Vec<(u64, u64)>,
}

impl Ftl for IdleProbe {
    fn works_when_idle(&self) -> bool {
        true
    }
    fn idle(&mut self, dev: &mut Device, until_ns: u64) -> Result<()> {
        self.windows.push((dev.span().start, until_ns));
        dev.ram(1);
        Ok(())
    }
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<crate::flash::PageTag>> {
        self.inner.read(lpn, dev)
    }
    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.inner.write(lpn, version, dev)
    }
    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.inner.trim(lpn, dev)
    }
    fn ram_bytes(&self) -> u64 {
        self.inner.ram_bytes()
    }
    fn block_role(&self, block: crate::flash::BlockId, dev: &Device) -> crate::ftl::BlockRole {
        self.inner.block_role(block, dev)
    }
    fn inspect(&self, query: &crate::inspect::InspectQuery) -> crate::inspect::Inspection {
        self.inner.inspect(query)
    }
    fn check(&self, dev: &Device) -> Result<()> {
        self.inner.check(dev)
    }
    fn hash_into(&self, h: &mut StateHasher) {
        self.inner.hash_into(h)
    }
    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[test]
fn the_scheme_is_told_of_each_idle_gap_and_its_work_is_charged() {
    // Writes at 0, 100 µs (the first program ends at 200 µs: no gap) and 1,000 µs (a gap
    // from 400 to 1,000 µs); 1 µs a RAM access.
    let mut config = SimConfig::default();
    config.device.latency.ram_access_ns = 1_000;
    let requests = [0u64, 100_000, 1_000_000]
        .iter()
        .enumerate()
        .map(|(i, &t)| Request { time_ns: t, op: HostOp::Write, offset: i as u64 * 4096, size: 4096 })
        .collect();
    let mut sim = Sim::new(config, &Trace { format: "t".into(), requests }, "t").unwrap();
    let inner = sim.ftl.clone_box();
    sim.ftl = Box::new(IdleProbe { inner, windows: Vec::new() });
    sim.step(usize::MAX).unwrap();
    let probe = format!("{:?}", sim.ftl);
    // First write: 200 + 1 µs; second waits to 201, ends 402; the gap is 402..1000 µs.
    assert!(probe.contains("windows: [(402000, 1000000)]"), "{probe}");
    assert_eq!(sim.metrics().service_time_us.ram, 4.0, "three map updates and one idle access");
}

/// A scheme that delegates to `page` but answers reads from a RAM shadow of what it was
/// asked to write, never reading flash (review engine-model §4.3, fabricated reads).
#[derive(Debug, Clone)]
struct Fabricator {
    inner: Box<dyn Ftl>,
    shadow: std::collections::HashMap<u32, u32>,
}

impl Ftl for Fabricator {
    fn read(&mut self, lpn: u32, _dev: &mut Device) -> Result<Option<crate::flash::PageTag>> {
        Ok(self.shadow.get(&lpn).map(|&v| crate::flash::PageTag::data(lpn, v)))
    }
    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.shadow.insert(lpn, version);
        self.inner.write(lpn, version, dev)
    }
    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.shadow.remove(&lpn);
        self.inner.trim(lpn, dev)
    }
    fn ram_bytes(&self) -> u64 {
        self.inner.ram_bytes()
    }
    fn block_role(&self, block: crate::flash::BlockId, dev: &Device) -> crate::ftl::BlockRole {
        self.inner.block_role(block, dev)
    }
    fn map_view(&self) -> Option<crate::invariants::MapView<'_>> {
        self.inner.map_view()
    }
    fn inspect(&self, query: &crate::inspect::InspectQuery) -> crate::inspect::Inspection {
        self.inner.inspect(query)
    }
    fn check(&self, dev: &Device) -> Result<()> {
        self.inner.check(dev)
    }
    fn hash_into(&self, h: &mut StateHasher) {
        self.inner.hash_into(h)
    }
    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[test]
fn a_read_answered_without_reading_flash_is_caught() {
    // Review engine-model §4.3: the oracle sees only the tag, so a made-up tag with the
    // right version passed every check while the read cost nothing.
    let requests: Vec<Request> = (0..4)
        .map(|i| Request { time_ns: 0, op: HostOp::Write, offset: i * 4096, size: 4096 })
        .chain((0..4).map(|i| Request { time_ns: 0, op: HostOp::Read, offset: i * 4096, size: 4096 }))
        .collect();
    let trace = Trace { format: "t".into(), requests };
    let build = |checked: bool| {
        let mut sim = Sim::new(SimConfig::default(), &trace, "t").unwrap();
        sim.set_check_every_step(checked);
        let inner = sim.ftl.clone_box();
        sim.ftl = Box::new(Fabricator { inner, shadow: Default::default() });
        sim
    };
    // The oracle alone is fooled: every read "returns" the newest version.
    let mut blind = build(false);
    blind.step(usize::MAX).unwrap();
    assert_eq!(blind.metrics().integrity_errors, 0);
    assert_eq!(blind.device.counters.page_reads[Purpose::Data as usize], 0, "no read reached flash");
    // The step check compares the answer with the page read from flash.
    let mut checked = build(true);
    checked.step(4).unwrap();
    let e = checked.step(1).unwrap_err().to_string();
    assert!(e.contains("read of LPN 0") && e.contains("None"), "{e}");
    // The real scheme passes the same check.
    let mut honest = Sim::new(SimConfig::default(), &trace, "t").unwrap();
    honest.set_check_every_step(true);
    honest.step(usize::MAX).unwrap();
    assert_eq!(honest.device.counters.page_reads[Purpose::Data as usize], 4);
}

/// The run's time sums are plain adds only while no part of a cost is past 2^32 ns: a
/// 10 s program turns them to saturating sums for the rest of the run, so a total near the
/// end of the clock stops the run rather than wrapping.
#[test]
fn a_cost_past_the_plain_sums_bound_turns_the_sums_saturating() {
    let requests =
        (0..4).map(|i| Request { time_ns: 0, op: HostOp::Write, offset: i * 4096, size: 4096 }).collect();
    let mut config = SimConfig::default();
    config.device.latency.program_ns = 10_000_000_000;
    let mut sim = Sim::new(config, &Trace { format: "t".into(), requests }, "t").unwrap();
    sim.step(1).unwrap();
    assert_eq!(sim.plain_sums, PLAIN_SUMS, "a part past the bound leaves the plain sums");
    assert!(sim.host().flash_ns() >= 10_000_000_000);
    sim.host.service.flash_ns[crate::events::Purpose::Data as usize] = u64::MAX - 1;
    let e = sim.step(1).unwrap_err().to_string();
    assert!(e.contains("reached its end"), "{e}");
    assert_eq!(sim.host().flash_ns(), u64::MAX, "saturated, not wrapped");
}
