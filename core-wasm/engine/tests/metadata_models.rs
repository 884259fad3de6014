//! Seed 003's metadata placement wraps every scheme: each scheme under each of the four
//! memory configurations keeps every page (oracle and invariants after every request), the
//! four-part time breakdown adds up to the service time, and the configurations order as
//! their levels imply (the ideal SRAM loads nothing; write-back programs no more NAND
//! metadata pages than write-through).

mod common;

use common::shipped_trace;
use ftl_engine::ftl::SCHEMES;
use ftl_engine::metadata::MetadataModel;
use ftl_engine::{Metrics, Sim, SimConfig};

fn run(scheme: &str, model: MetadataModel, bytes: &[u8]) -> Metrics {
    let mut config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    config.metadata.model = model;
    // Back to back, so a scheme's idle-time work (HCFTL's DTP merge) does not depend on how
    // long the metadata took.
    config.timing = ftl_engine::config::TimingMode::Closed;
    let label = format!("{scheme} under {}", model.name());
    let mut sim = Sim::from_bytes(config, bytes, None, "hm_0").unwrap_or_else(|e| panic!("{label}: {e}"));
    sim.set_check_every_step(true);
    while !sim.done() {
        sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
    }
    assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
    sim.metrics()
}

#[test]
fn every_scheme_keeps_every_page_under_every_metadata_model() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for s in SCHEMES {
        let id = s.info.id;
        let flat = run(id, MetadataModel::Flat, &bytes);
        assert!(flat.metadata.is_none(), "{id}: no model, no report");
        let runs: Vec<Metrics> = MetadataModel::SEED_003.iter().map(|&m| run(id, m, &bytes)).collect();
        for (m, r) in MetadataModel::SEED_003.iter().zip(&runs) {
            let b = &r.time_breakdown_us;
            let sum = b.host_transfer + b.metadata_loading + b.ftl_execution + b.user_data_transfer;
            // One unit, programs not posted: elapsed time is the service time.
            assert!((sum - r.service_time_us.total).abs() < 1e-6, "{id} {}: the four parts add up", m.name());
            assert_eq!(r.flash, flat.flash, "{id} {}: the model moves metadata, not user data", m.name());
            let meta = r.metadata.as_ref().unwrap();
            assert_eq!(meta.model, m.name());
            // Besides the device's erase counts and free list, the scheme's own tables.
            assert!(
                meta.accesses > meta.device_accesses,
                "{id} {}: its mapping-table accesses bypass the metadata path",
                m.name()
            );
        }
        let [ideal, no_cache, cache, battery] = &runs[..] else { unreachable!() };
        assert_eq!(ideal.time_breakdown_us.metadata_loading, 0.0, "{id}");
        assert!(no_cache.time_breakdown_us.metadata_loading > 0.0, "{id}");
        let writes = |m: &Metrics| m.metadata.as_ref().unwrap().nand_writes;
        let reads = |m: &Metrics| m.metadata.as_ref().unwrap().nand_reads;
        assert!(reads(cache) <= reads(no_cache), "{id}: a DRAM cache saves NAND reads");
        // The trace writes: some table update reaches NAND through the write-through cache.
        assert!(writes(cache) > 0, "{id}: its table updates bypass the metadata path");
        assert!(writes(battery) <= writes(cache), "{id}: write-back programs no more than write-through");
    }
}

/// The breakdown is of elapsed time, as the seed's execution cycles are: with four units
/// working in parallel on large requests, the user-data part is less than the flash work it
/// holds.
#[test]
fn parallel_units_overlap_the_user_data_part() {
    use ftl_engine::trace::generate::{generate, GenParams, Pattern, SizeDist, Spread};
    let trace = generate(GenParams {
        count: 200,
        address_space: 2 << 20,
        sizes: SizeDist::Fixed(64 << 10),
        read_share: 0.5,
        pattern: Pattern { sequential_share: 1.0, spread: Spread::Uniform },
        ..GenParams::default()
    })
    .unwrap();
    let mut config = SimConfig { scheme: "bast".into(), ..SimConfig::default() };
    (config.device.channels, config.device.ways, config.device.posted_programs) = (2, 2, true);
    config.device.over_provisioning = 0.4;
    config.timing = ftl_engine::config::TimingMode::Closed;
    config.metadata.model = MetadataModel::NoCache;
    let mut sim = Sim::new(config, &trace, "seq").unwrap();
    sim.step(usize::MAX).unwrap();
    let m = sim.metrics();
    let b = &m.time_breakdown_us;
    assert!(
        b.user_data_transfer < 0.9 * m.service_time_us.flash,
        "{b:?} against {} µs of flash work",
        m.service_time_us.flash
    );
    assert!(b.metadata_loading > 0.0 && b.metadata_share > 0.0);
}
