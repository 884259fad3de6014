//! End-of-run verification (review engine-model §4.5): outside tests only reads are checked
//! against the oracle, so a page the trace loses and never reads again went unnoticed. This
//! checks the whole state once, as the CLI's `run --verify` does after the last request.

use super::*;

impl Sim {
    /// Runs the invariant checks, then reads every logical page back through the scheme on a
    /// copy (the run itself, its counters and its clock are untouched). Returns how many
    /// pages read back something other than their newest version (0 when all is well), or
    /// the first failed invariant.
    pub fn verify(&self) -> Result<u64> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.check_invariants()?;
        let mut ftl = self.ftl.clone();
        let mut dev = self.device.clone();
        dev.set_recording(false);
        dev.set_meta_hook(None);
        let mut oracle = self.oracle.clone();
        let before = oracle.errors();
        for lpn in 0..oracle.logical_pages() as u32 {
            let got = ftl.read(lpn, &mut dev)?;
            oracle.check_read(lpn, got);
        }
        Ok(oracle.errors() - before)
    }
}
