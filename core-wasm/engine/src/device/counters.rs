//! The device's counters and per-request cost records: plain data the device fills in as
//! schemes run and the simulation reads out. The device (`device/mod.rs`) does the filling.

/// Flash operation counts, one row per [`Purpose`](crate::events::Purpose).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlashCounters {
    /// Page reads per purpose.
    pub page_reads: [u64; 6],
    /// Page programs per purpose.
    pub page_writes: [u64; 6],
    /// OOB-only reads per purpose.
    pub oob_reads: [u64; 6],
    /// Block erases per purpose.
    pub erases: [u64; 6],
    /// The same four rows split by what the page holds (erases: what the erased block held),
    /// indexed by [`PageKind`](crate::flash::PageKind): `[None, Data, Translation, Dtp]`. Thesis Table 2.5's columns are
    /// cells of it (data copies = `by_kind[Data].page_writes[Gc]`, translation reads =
    /// `by_kind[Translation].page_reads` summed, and so on).
    pub by_kind: [KindCounters; 4],
}

/// Operation counts per purpose for one kind of content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindCounters {
    /// Page reads per purpose.
    pub page_reads: [u64; 6],
    /// Page programs per purpose.
    pub page_writes: [u64; 6],
    /// OOB-only reads per purpose.
    pub oob_reads: [u64; 6],
    /// Block erases per purpose.
    pub erases: [u64; 6],
}

impl FlashCounters {
    /// Sum over purposes.
    pub fn total(row: &[u64; 6]) -> u64 {
        row.iter().sum()
    }
}

/// Scheme-level counters: garbage collection, merges and cache hit rates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemeCounters {
    /// GC runs (victims collected).
    pub gc_runs: u64,
    /// Valid pages copied by GC.
    pub gc_valid_copies: u64,
    /// Merges by kind: switch, partial, full.
    pub merges: [u64; 3],
    /// Blocks opened for a unit from another unit's free blocks (see [`Device::cross_unit_block`](crate::device::Device::cross_unit_block)).
    pub cross_unit_blocks: u64,
    /// Log-block schemes ([`Device::merge_work`](crate::device::Device::merge_work), [`Device::log_merged`](crate::device::Device::log_merged), [`Device::oob_scan`](crate::device::Device::oob_scan)).
    pub log: LogCounters,
    /// Mapping-cache hits and misses.
    pub mapping_hits: u64,
    /// Mapping-cache misses.
    pub mapping_misses: u64,
    /// Data-buffer hits.
    pub buffer_hits: u64,
    /// Data-buffer misses.
    pub buffer_misses: u64,
    /// Translation-page reads by cause ([`crate::vocab::TpCause`] order).
    pub tpage_reads: [u64; crate::events::TpCause::COUNT],
    /// Translation-page writes by cause ([`crate::vocab::TpCause`] order).
    pub tpage_writes: [u64; crate::events::TpCause::COUNT],
    /// Bloom-filter look-ups that said "maybe" for a key the filtered set did not hold
    /// (HCFTL's DTP index): each costs a wasted flash read.
    pub bloom_false_positives: u64,
    /// RAM prunes: a victim (a caching group, a page, a flushed level) pushed out of a
    /// joint mapping + data RAM (the RAM-management family's "next prune" stop).
    pub prunes: u64,
    /// Partial GC steps run (RFTL's and GFTL's bounded steps: copies or an erase), the
    /// "next GC step" stop. Not hashed: it follows from the schemes' states.
    pub gc_steps: u64,
}

/// Merge work of the log-block schemes (not hashed: derived from the work itself).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogCounters {
    /// Page copies of merges, by kind (switch, partial, full).
    pub merge_copies: [u64; 3],
    /// Block erases of merges, by kind (a victim's own erase goes to its last merge).
    pub merge_erases: [u64; 3],
    /// Erases of log blocks reclaimed with no live page (no merge; kind `empty` in the
    /// metrics' `merge_erases`, so merge erases add up to the merge-purpose erases).
    pub empty_erases: u64,
    /// Log (or replacement) blocks reclaimed, and their written pages when reclaimed.
    pub blocks_merged: u64,
    /// Written pages of the reclaimed log blocks, summed.
    pub pages_at_merge: u64,
    /// Victims reclaimed by full merges, and the data blocks merged for them.
    pub full_victims: u64,
    /// Data blocks merged for full-merge victims, summed (association degree).
    pub full_degree: u64,
    /// Reads that scanned a replacement block's spare areas (NFTL).
    pub oob_scans: u64,
    /// Pages a merge programmed as padding (in-order placement on MLC): see
    /// [`crate::metrics::LogBlockMetrics::padding_pages`].
    pub padding_pages: u64,
    /// Most log blocks in use at once.
    pub peak_blocks: u64,
}

/// Simulated time spent on the current request, split by where it went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestCost {
    /// Flash time per purpose (ns).
    pub flash_ns: [u64; 6],
    /// RAM table / buffer accesses (ns).
    pub ram_ns: u64,
    /// Cache management: searches and LRU updates (ns).
    pub lru_ns: u64,
    /// Host-interface transfers (ns).
    pub host_ns: u64,
    /// Moving metadata pages between the memory levels (seed 003's "metadata loading",
    /// [`crate::metadata`]); 0 without a placement model (ns).
    pub meta_ns: u64,
}

impl RequestCost {
    /// Adds `other` part by part with `add` (a plain or a saturating add).
    #[inline(always)]
    pub fn add_with(&mut self, other: &RequestCost, add: impl Fn(u64, u64) -> u64) {
        for (total, &ns) in self.flash_ns.iter_mut().zip(&other.flash_ns) {
            *total = add(*total, ns);
        }
        self.ram_ns = add(self.ram_ns, other.ram_ns);
        self.lru_ns = add(self.lru_ns, other.lru_ns);
        self.host_ns = add(self.host_ns, other.host_ns);
        self.meta_ns = add(self.meta_ns, other.meta_ns);
    }

    /// Whether nothing was charged.
    pub fn is_zero(&self) -> bool {
        let flash = self.flash_ns.iter().fold(0, |any, &ns| any | ns);
        flash | self.ram_ns | self.lru_ns | self.host_ns | self.meta_ns == 0
    }

    /// Total service time (ns).
    pub fn total_ns(&self) -> u64 {
        self.flash_ns.iter().sum::<u64>() + self.ram_ns + self.lru_ns + self.host_ns + self.meta_ns
    }
}

/// When the current request started and finished, in simulated ns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestSpan {
    /// Arrival at the device.
    pub arrival: u64,
    /// When the controller began serving it (arrival + queueing).
    pub start: u64,
    /// When its last operation finished.
    pub completion: u64,
}
