//! Whether a simulation fits in the browser, checked before it is built. A wasm32 instance
//! addresses at most 4 GiB, and an allocation past that traps ("unreachable"), losing the
//! simulation on screen; so a device is refused by the memory it would need, with the most
//! blocks that fit, rather than after seconds of building.

use ftl_engine::{Sim, SimConfig, Timeline};

use crate::CHECKPOINT_BUDGET_BYTES;

/// What the simulation and its checkpoints may take of the wasm32 heap's 4 GiB. The last GiB
/// is kept for what the estimate leaves out: the trace's requests, the frame copied out for
/// the page, recorded events and allocator slack. `Sim::approx_bytes` counts about 20 bytes
/// a page for every scheme, what `page` holds; a scheme with tables of its own (the
/// demand-paged ones, MNFTL, RFTL) that has filled its device holds up to three times that,
/// so the heap guard ([`crate::heap`]) holds every timeline to this budget as it runs.
pub(crate) const HEAP_BUDGET_BYTES: u64 = 3 << 30;

/// The most a simulation of `config` over `requests` requests holds at once in the browser.
fn peak_bytes(config: &SimConfig, requests: u64) -> u64 {
    Timeline::peak_bytes(Sim::approx_bytes_of(config), CHECKPOINT_BUDGET_BYTES, requests)
}

/// Refuses a device the browser cannot hold, saying how much it would need and the most
/// blocks that fit. `requests` is the trace's length (0 when not known yet: the least any
/// run needs, as the settings check it).
pub(crate) fn check_fits(config: &SimConfig, requests: u64) -> Result<(), String> {
    let need = peak_bytes(config, requests);
    if need <= HEAP_BUDGET_BYTES {
        return Ok(());
    }
    let fits = |blocks: u32| {
        let mut c = config.clone();
        c.device.blocks = blocks;
        peak_bytes(&c, requests) <= HEAP_BUDGET_BYTES
    };
    // The estimate grows with the blocks: the largest count that fits, by bisection.
    let (mut lo, mut hi) = (0u32, config.device.blocks);
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let d = &config.device;
    Err(format!(
        "a device of {} blocks x {} pages ({} pages) needs about {} in the browser \
         (the simulation and the copies kept for stepping back), more than the {} it may use; \
         lower device.blocks to {} or fewer (the ftl command line has no such limit)",
        thousands(u64::from(d.blocks)),
        d.pages_per_block,
        thousands(d.physical_pages()),
        gib(need),
        gib(HEAP_BUDGET_BYTES),
        thousands(u64::from(lo)),
    ))
}

/// About how much one headless run (the comparison lab's, no checkpoints) of `config_json`
/// over `requests` requests holds: the simulation, the parsed trace and its resolved page
/// requests. The app runs only as many at once as the browser's memory takes.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = runBytes)]
pub fn run_bytes(config_json: &str, requests: f64) -> Result<f64, wasm_bindgen::JsError> {
    let config = SimConfig::from_json(config_json).map_err(crate::js_err)?;
    let per_request =
        std::mem::size_of::<ftl_engine::trace::Request>() + ftl_engine::workload::ESTIMATED_BYTES_PER_REQUEST;
    Ok(Sim::approx_bytes_of(&config) as f64 + requests.max(0.0) * per_request as f64)
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(blocks: u32, pages_per_block: u32) -> SimConfig {
        let mut c = SimConfig::default();
        c.device.blocks = blocks;
        c.device.pages_per_block = pages_per_block;
        c
    }

    #[test]
    fn the_crashing_device_is_refused_with_its_need_and_the_most_that_fits() {
        // 2,097,151 x 64 passes the engine's page limit but took the browser past 4 GiB.
        let c = device(2_097_151, 64);
        assert!(ftl_engine::ftl::validate(&c).is_ok());
        let e = check_fits(&c, 0).unwrap_err();
        assert!(
            e.starts_with("a device of 2,097,151 blocks x 64 pages (134,217,664 pages) needs about"),
            "{e}"
        );
        let most: u32 = e
            .split("lower device.blocks to ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert!(check_fits(&device(most, 64), 0).is_ok(), "{e}");
        assert!(check_fits(&device(most + 1, 64), 0).is_err(), "{e}");
    }

    #[test]
    fn devices_the_app_runs_fit_and_a_long_trace_needs_more() {
        // treeftl-slc's 262,144 x 64 runs in the browser at full speed.
        assert!(check_fits(&device(262_144, 64), 0).is_ok());
        assert!(check_fits(&SimConfig::default(), 10_000_000).is_ok());
        let big = device(400_000, 64);
        assert!(peak_bytes(&big, 1 << 40) > peak_bytes(&big, 0));
    }
}
