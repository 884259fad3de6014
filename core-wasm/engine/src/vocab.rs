//! The closed vocabularies that cross the engine's boundary, in one place: the stops
//! [`crate::Timeline::step_until`] can jump to, and the numeric codes of block roles, page
//! kinds and states, purposes and cache levels as the frame and the event records carry
//! them. The facade exports [`vocab_json`]; the app renders buttons, keys and legends from
//! it instead of mirroring the enums.

use serde_json::{json, Value};

use crate::device::SchemeCounters;
use crate::events::Purpose;
pub use crate::events::{cache_level_id, TpCause, CACHE_LEVELS};

/// Events [`crate::Timeline::step_until`] can stop at. A scheme lists the ones it can
/// produce in its [`crate::ftl::SchemeSpec::stops`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopAt {
    /// A request during which garbage collection ran.
    Gc,
    /// A request with a mapping-cache miss.
    MappingMiss,
    /// A request with a log-block merge.
    Merge,
    /// A request during which RAM was pruned (a caching group or page flushed to make room).
    Prune,
    /// A request that ran a partial GC step (bounded schemes: RFTL, GFTL), whether it starts,
    /// continues or ends a collection: finer than [`StopAt::Gc`], which counts collections.
    GcStep,
}

impl StopAt {
    /// Every stop, in button order.
    pub const ALL: [StopAt; 5] =
        [StopAt::Gc, StopAt::GcStep, StopAt::MappingMiss, StopAt::Merge, StopAt::Prune];

    /// Stable id (`step_until`'s argument across the boundary).
    pub fn id(self) -> &'static str {
        match self {
            StopAt::Gc => "gc",
            StopAt::MappingMiss => "miss",
            StopAt::Merge => "merge",
            StopAt::Prune => "prune",
            StopAt::GcStep => "gc-step",
        }
    }

    /// Button label.
    pub fn label(self) -> &'static str {
        match self {
            StopAt::Gc => "Next GC",
            StopAt::MappingMiss => "Next miss",
            StopAt::Merge => "Next merge",
            StopAt::Prune => "Next prune",
            StopAt::GcStep => "Next GC step",
        }
    }

    /// Keyboard shortcut.
    pub fn key(self) -> &'static str {
        match self {
            StopAt::Gc => "g",
            StopAt::MappingMiss => "m",
            StopAt::Merge => "e",
            StopAt::Prune => "p",
            StopAt::GcStep => "s",
        }
    }

    /// What the stop waits for.
    pub fn doc(self) -> &'static str {
        match self {
            StopAt::Gc => "Serve requests until one in which garbage collection runs.",
            StopAt::MappingMiss => "Serve requests until one that misses the mapping cache.",
            StopAt::Merge => "Serve requests until one in which a log block is merged.",
            StopAt::Prune => "Serve requests until one in which RAM is pruned: a victim (caching group, page) flushed to make room.",
            StopAt::GcStep => "Serve requests until one that runs a partial GC step (some valid-page copies or the erase of a collection spread over requests), not only the first step of a collection.",
        }
    }

    /// Parses a stop id (`gc`, `gc-step`, `miss`, `merge`, `prune`).
    pub fn from_name(name: &str) -> Option<StopAt> {
        StopAt::ALL.into_iter().find(|s| s.id() == name)
    }

    /// The counter that grows when this stop happens.
    pub fn count(self, st: &SchemeCounters) -> u64 {
        match self {
            StopAt::Gc => st.gc_runs,
            StopAt::MappingMiss => st.mapping_misses,
            StopAt::Merge => st.merges.iter().sum(),
            StopAt::Prune => st.prunes,
            StopAt::GcStep => st.gc_steps,
        }
    }
}

/// `(code, id, label)` rows of a numeric vocabulary.
type Codes = &'static [(u8, &'static str, &'static str)];

/// [`crate::ftl::BlockRole`] codes (the frame's `blockRoles`).
pub const BLOCK_ROLES: Codes = &[
    (0, "free", "Free"),
    (1, "data", "Data"),
    (2, "translation", "Translation"),
    (3, "log", "Log"),
    (4, "replacement", "Replacement"),
    (5, "buffer", "Buffer"),
    (6, "dtp", "Dynamic translation pages"),
    (7, "active", "Open for writes"),
    (8, "primary", "Primary"),
    (9, "cleaning", "Cleaning destination"),
];

/// [`crate::flash::PageKind`] codes (spare-area tags).
pub const PAGE_KINDS: Codes = &[
    (0, "none", "None"),
    (1, "data", "Data"),
    (2, "translation", "Translation"),
    (3, "dtp", "Dynamic translation page"),
];

/// [`crate::flash::PageState`] codes (the frame's `pageStates`).
pub const PAGE_STATES: Codes = &[(0, "free", "Free"), (1, "valid", "Valid"), (2, "invalid", "Invalid")];

/// Display label of a purpose.
pub fn purpose_label(p: Purpose) -> &'static str {
    match p {
        Purpose::Data => "Data",
        Purpose::Translation => "Mapping",
        Purpose::Log => "Log",
        Purpose::Buffer => "Buffer",
        Purpose::Gc => "GC",
        Purpose::Merge => "Merge",
    }
}

fn codes(rows: Codes) -> Value {
    rows.iter().map(|&(code, id, label)| json!({"code": code, "id": id, "label": label})).collect()
}

/// Every vocabulary as one JSON object (see the facade contract).
pub fn vocab_json() -> Value {
    json!({
        "stops": StopAt::ALL.iter().map(|s| json!({"id": s.id(), "label": s.label(), "key": s.key(), "doc": s.doc()})).collect::<Vec<_>>(),
        "block_roles": codes(BLOCK_ROLES),
        "page_kinds": codes(PAGE_KINDS),
        "page_states": codes(PAGE_STATES),
        "purposes": Purpose::ALL.iter().map(|&p| json!({"code": p as u8, "id": p.name(), "label": purpose_label(p)})).collect::<Vec<_>>(),
        "event_kinds": crate::events::record::KINDS.iter().enumerate().map(|(code, id)| json!({"code": code, "id": id})).collect::<Vec<_>>(),
        "event_words": crate::events::record::EVENT_WORDS,
        "tpage_causes": TpCause::ALL.iter().map(|&c| json!({"code": c as u8, "id": c.id(), "label": c.label()})).collect::<Vec<_>>(),
        "cache_levels": CACHE_LEVELS.iter().map(|&(l, label)| json!({"code": l as u8, "id": cache_level_id(l), "label": label})).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::CacheLevel;
    use crate::flash::{PageKind, PageState};
    use crate::ftl::BlockRole;

    /// The code tables agree with the enums they name (a new variant must get a row).
    #[test]
    fn code_tables_match_the_enums() {
        assert_eq!(BLOCK_ROLES.len(), BlockRole::Cleaning as usize + 1);
        assert_eq!(BLOCK_ROLES[BlockRole::Translation as usize].1, "translation");
        assert_eq!(BLOCK_ROLES[BlockRole::Primary as usize].1, "primary");
        assert_eq!(PAGE_KINDS[PageKind::Translation as usize].1, "translation");
        assert_eq!(PAGE_KINDS.len(), PageKind::Dtp as usize + 1);
        assert_eq!(PAGE_STATES[PageState::Invalid as usize].1, "invalid");
        for (i, &(l, _)) in CACHE_LEVELS.iter().enumerate() {
            assert_eq!(l as usize, i);
        }
        assert_eq!(cache_level_id(CacheLevel::TranslationPage), "translation_page");
        for (i, &c) in TpCause::ALL.iter().enumerate() {
            assert_eq!(c as usize, i);
        }
        for rows in [BLOCK_ROLES, PAGE_KINDS, PAGE_STATES] {
            assert!(rows.iter().enumerate().all(|(i, r)| r.0 as usize == i), "codes are dense and in order");
        }
    }

    #[test]
    fn stops_round_trip_by_id_and_have_distinct_keys() {
        for s in StopAt::ALL {
            assert_eq!(StopAt::from_name(s.id()), Some(s));
        }
        let mut keys: Vec<_> = StopAt::ALL.iter().map(|s| s.key()).collect();
        keys.dedup();
        assert_eq!(keys.len(), StopAt::ALL.len());
        assert_eq!(StopAt::from_name("nope"), None);
    }
}
