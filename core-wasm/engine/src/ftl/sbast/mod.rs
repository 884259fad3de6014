//! `sbast`: shared BAST (seed 004 §2, ref. \[4\]). A log block may serve several data blocks,
//! as in FAST, but a data block uses at most one log block, so a read searches one log
//! block only. Built on BAST's [`LogFtl`] with `share` data blocks per log block: a data
//! block without a log block joins the newest log block that has room and serves fewer
//! than `share` data blocks, else takes a fresh one (the victim merged first when the pool
//! is used up); a data block whose log block is full has that log block merged before it
//! takes another.
//!
#![doc = include_str!("notes.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::bast::{LogFtl, LogVictim};
use super::{OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "sbast",
        name: "Shared BAST (SBAST)",
        family: "hybrid",
        source: "Shin (seed 004) §2 (SBAST, ref. [4])",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge],
    caches: &[],
    options: OptionsSpec::of::<SbastOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            ("four data blocks per log block, LRU victim", json!({})),
            (
                "two data blocks per log block, two log blocks, FIFO",
                json!({"share": 2, "log_blocks": 2, "victim": "fifo"}),
            ),
        ]
    },
    build: |ctx, options| {
        let o = super::parse_options::<SbastOptions>("sbast", options)?;
        if o.share == 0 {
            return Err(crate::error::EngineError::Config(
                "options.share of scheme 'sbast' must be at least 1".into(),
            ));
        }
        Ok(Box::new(LogFtl::new(ctx, "sbast", o.log_blocks, o.victim, o.share as usize)?))
    },
};

/// `sbast` options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SbastOptions {
    /// Data blocks one log block may serve at most (1 is BAST). Default 4.
    pub share: u32,
    /// Log blocks at most; 0 (default): every spare block but the merge target.
    pub log_blocks: u32,
    /// Victim when a log block is needed and none is free: `lru` (default) or `fifo`.
    pub victim: LogVictim,
}

impl Default for SbastOptions {
    fn default() -> Self {
        SbastOptions { share: 4, log_blocks: 0, victim: LogVictim::Lru }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bast::tests::setup;
    use super::super::logblock::seed004::{assert_reads, write_all};

    #[test]
    fn data_blocks_share_a_log_block_but_never_take_a_second_one() {
        let (mut ftl, mut dev) = setup(3, 4);
        let mut v = 0;
        write_all(&mut ftl, &mut dev, &(0..16).collect::<Vec<_>>(), &mut v);
        write_all(&mut ftl, &mut dev, &[1, 5, 9], &mut v);
        assert_eq!(ftl.logs().count(), 1, "three data blocks share one log block");
        let shared = ftl.logs().next().unwrap().block;
        // A second log block for LBN 0 is refused outright.
        let other = ftl.map.take(&mut dev).unwrap();
        let e = ftl.assign(0, other).unwrap_err().to_string();
        assert!(e.contains("LBN 0 already uses log block"), "{e}");
        // LBN 0 fills the shared log block; its next update merges it rather than open another.
        write_all(&mut ftl, &mut dev, &[2], &mut v);
        assert_eq!(dev.stats.gc_runs, 0);
        write_all(&mut ftl, &mut dev, &[3], &mut v);
        assert_eq!(dev.stats.gc_runs, 1, "the full shared log block was merged");
        assert!(ftl.logs().all(|l| l.block != shared));
        assert_eq!(dev.stats.merges[2], 3, "each of its three data blocks fully merged");
        assert_reads(&mut ftl, &mut dev, &[(1, 17), (2, 20), (3, 21), (5, 18), (9, 19)]);
    }
}
