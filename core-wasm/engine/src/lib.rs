//! # ftl-engine
//!
//! A deterministic flash translation layer (FTL) simulator: a NAND flash device, FTL schemes
//! that manage it, block I/O traces that drive it, and the metrics that come out. Pure Rust:
//! no I/O, no clocks, no OS randomness, so the same run gives the same bits natively and in
//! WebAssembly.
//!
//! ## Steps
//!
//! 1. **Parse** a trace into byte-addressed [`trace::Request`]s: [`trace::parse`] for a
//!    whole buffer, [`trace::TraceReader`] chunk by chunk, eleven formats detected or named
//!    ([`trace::FORMATS`]), with selection options ([`trace::ParseOptions`]) and located
//!    errors ([`trace::ParseError`]); [`trace::stats`] summarises a trace and
//!    [`trace::generate`] makes seeded synthetic ones.
//! 2. **Configure** a device and scheme ([`config::SimConfig`], or a source's preset from
//!    [`presets`]); [`sim::Sim::new`] resolves the requests to logical pages
//!    ([`workload::Workload`]: dense, modulo or refuse; [`sim::Sim::workload_builder`] does it
//!    while a trace streams, so it is never held whole) and pre-fills the device (a target
//!    utilization, and the pages the trace reads before it writes them).
//! 3. **Step** ([`sim::Sim::step`]): each request's pages go to the scheme ([`ftl::Ftl`]),
//!    whose flash operations go through [`device::Device`], which enforces NAND rules
//!    ([`flash::FlashArray`]), charges simulated time and records [`events::Event`]s.
//!    Response time = completion − arrival, with a FIFO device queue.
//! 4. **Check**: the [`oracle::Oracle`] verifies every read returns the newest version;
//!    [`invariants::check`] verifies mapping and flash bookkeeping.
//! 5. **Report**: [`sim::Sim::metrics`] (the DESIGN §4 contract) and [`frame::Frame`] (flat
//!    buffers for views). [`sim::Sim::state_hash`] fingerprints the whole state.
//! 6. **Step back**: a [`Timeline`] keeps checkpoints (clones of the whole `Sim`) and seeks
//!    backwards by restoring the nearest one and replaying.
//!
//! Time is simulated in integer nanoseconds: each flash and RAM operation has a cost
//! ([`config::Latencies`]); the controller serves requests in arrival order (trace
//! timestamps, closed loop, or periodic arrivals — [`config::TimingMode`]) over
//! `channels x ways` units ([`device::Device`]). Shared building blocks for schemes live in
//! [`cache`] (LRU, segmented LRU, LFU, ghost cache, bloom filter) and [`gc`] (greedy,
//! cost-benefit and FIFO victims, block ages).
//!
//! ## Glossary
//!
//! - **LPN / PPN**: logical / physical page number. PPN = block × pages-per-block + page.
//! - **GC**: garbage collection — copy a victim block's valid pages elsewhere, erase it.
//! - **WAF**: write amplification factor — flash page programs per host page written.
//! - **OP**: over-provisioning — physical capacity hidden from the host.
//! - **OOB**: the spare area of a page (here: what it holds and its version stamp).
//! - **seed NNN**: one of the five source documents (TreeFTL 000, HCFTL 001, Qin's thesis
//!   002, Bang et al. 003, Shin 004); `docs/sources.md` at the repository root lists them.
//!
//! ## Adding a scheme
//!
//! A scheme is one folder plus one registry line:
//! 1. `src/ftl/NAME/mod.rs`: the state, `impl Ftl` (and [`ftl::Collects`] if it allocates
//!    blocks through the shared [`ftl::BlockPool`]), and `pub static SPEC: SchemeSpec` — its
//!    listing, `notes: include_str!("notes.md")`, the stops it can produce, its cache names,
//!    its options type (`#[derive(Serialize, Deserialize, JsonSchema)]`, `#[serde(default,
//!    deny_unknown_fields)]`, doc comments become the option docs), named option variants,
//!    and a `build` function from a [`ftl::BuildCtx`] and its options.
//! 2. `src/ftl/NAME/notes.md`: how it works, sources (seed and section), our choices. The
//!    app shows it, and `mod.rs` includes it in its docs (`#![doc = include_str!("notes.md")]`)
//!    after a short overview of the code, so each choice is written once.
//! 3. `mod NAME;` and `&NAME::SPEC` in [`ftl::SCHEMES`].
//!
//! A scheme of the demand-paged family (map on flash in translation pages, a cache in RAM)
//! holds a [`ftl::demand::DemandCore`] and implements [`ftl::demand::DemandScheme`] (its
//! cache policy); the GTD, translation-page reads and writes, GC with its batch update, the
//! family's checks and counters come from [`ftl::demand`], whose docs give the recipe.
//!
//! If a source compares it in an experiment, add a series for it (the scheme with the options
//! the source describes) to that entry of [`experiments::EXPERIMENTS`] (or a new entry with
//! the paper's numbers): the CLI's
//! `ftl sweep --experiment` and the app's Presets menu pick it up.
//!
//! Then `UPDATE_GOLDEN=1 cargo test -p ftl-engine --test golden_hashes` adds its golden case
//! (the other cases do not change). The config, the CLI help, the integrity tests (which
//! sweep every spec's variants) and the app (which renders specs) need no edit.
#![warn(missing_docs)]

pub mod ages;
pub mod bits;
pub mod cache;
pub mod config;
pub mod device;
pub mod error;
pub mod events;
pub mod experiments;
pub mod frame;
pub mod ftl;
pub mod gc;
pub mod hash;
pub mod ids;
pub mod inspect;
pub mod invariants;
pub mod lesson;
pub mod metadata;
#[allow(missing_docs)]
pub mod metrics;
pub mod oracle;
pub mod prefetch;
pub mod presets;
pub mod schema;
pub mod series;
pub mod sim;
pub mod sweep;
#[cfg(test)]
mod test_rng;
pub mod timeline;
pub mod trace;
pub mod vocab;
pub mod workload;

pub use config::SimConfig;
/// The flash array and the metadata-access path are layers of [`device`]; every scheme names
/// them, so they keep their short paths.
pub use device::{flash, meta};
pub use error::{EngineError, Result};
pub use frame::{Frame, COUNTER_NAMES};
pub use metrics::Metrics;
pub use sim::Sim;
pub use timeline::{HeapGuard, Timeline};
