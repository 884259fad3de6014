//! What a simulation reports about itself: its state hash and its metrics. Split from
//! `sim/mod.rs`, which serves requests; both read the same private fields of [`Sim`].

use super::Sim;
use crate::device::FlashCounters;
use crate::events::Purpose;
use crate::flash::PageKind;
use crate::hash::StateHasher;
use crate::metrics::*;

impl Sim {
    /// A hash of the whole engine state, identical natively and in wasm for the same run.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::default();
        h.u64(self.cursor as u64);
        self.device.flash().hash_into(&mut h);
        self.ftl.hash_into(&mut h);
        self.oracle.hash_into(&mut h);
        self.response.all().hash_into(&mut h);
        h.u64(self.last_completion_ns);
        self.device.hash_timing(&mut h);
        let c = &self.device.counters;
        let rows = [&c.page_reads, &c.page_writes, &c.oob_reads, &c.erases];
        let by_kind = c.by_kind.iter().flat_map(|k| [&k.page_reads, &k.page_writes, &k.oob_reads, &k.erases]);
        for row in rows.into_iter().chain(by_kind) {
            for &v in row.iter() {
                h.u64(v);
            }
        }
        // Everything the metrics are computed from, so a divergence in any reported number
        // shows in the hash (checkpoint replay, native vs wasm).
        let st = &self.device.stats;
        for v in [
            st.gc_runs,
            st.gc_valid_copies,
            st.mapping_hits,
            st.mapping_misses,
            st.buffer_hits,
            st.buffer_misses,
        ] {
            h.u64(v);
        }
        for &v in &st.merges {
            h.u64(v);
        }
        // Hashed only once it happens, so runs without borrowing keep the hashes they had
        // before the counter existed.
        if st.cross_unit_blocks > 0 {
            h.u64(st.cross_unit_blocks);
        }
        if self.host.pages_rmw_read > 0 {
            h.u64(self.host.pages_rmw_read);
        }
        // A placement model's time and levels (none without one: hashes stay as they were).
        if self.host.service.meta_ns > 0 {
            h.u64(self.host.service.meta_ns);
        }
        if let Some(hook) = self.device.meta_hook() {
            hook.hash_into(&mut h);
        }
        let host = &self.host;
        for v in [
            host.reads,
            host.writes,
            host.trims,
            host.pages_read,
            host.pages_written,
            host.pages_trimmed,
            host.flash_ns(),
            host.service.ram_ns,
            host.service.lru_ns,
            host.service.host_ns,
            self.sim_time_ns,
        ] {
            h.u64(v);
        }
        h.finish()
    }

    /// The metrics report of the run so far.
    pub fn metrics(&self) -> Metrics {
        let c = &self.device.counters;
        let s = &self.device.stats;
        let spec = crate::ftl::spec(&self.config.scheme).ok();
        let all = self.response.all();
        let by_purpose = Purpose::ALL
            .iter()
            .map(|&p| {
                let i = p as usize;
                (
                    p.name(),
                    PurposeCounts {
                        page_reads: c.page_reads[i],
                        page_writes: c.page_writes[i],
                        oob_reads: c.oob_reads[i],
                        erases: c.erases[i],
                    },
                )
            })
            .collect();
        let page_writes = FlashCounters::total(&c.page_writes);
        let erases = self.device.flash().erase_counts();
        let us = |ns: u64| ns as f64 / 1000.0;
        Metrics {
            scheme: self.config.scheme.clone(),
            config: serde_json::to_value(&self.config).unwrap_or(serde_json::Value::Null),
            trace: TraceInfo { name: self.trace_name.clone(), requests: self.total() as u64 },
            requests: RequestMetrics {
                reads: self.host.reads,
                writes: self.host.writes,
                trims: self.host.trims,
                pages_read: self.host.pages_read,
                pages_written: self.host.pages_written,
                pages_trimmed: self.host.pages_trimmed,
                pages_rmw_read: self.host.pages_rmw_read,
            },
            flash: FlashMetrics {
                page_reads: FlashCounters::total(&c.page_reads),
                page_writes,
                oob_reads: FlashCounters::total(&c.oob_reads),
                erases: FlashCounters::total(&c.erases),
                by_purpose,
                by_kind: [
                    // Spare-area reads that reach an unwritten page (NFTL's scans) and
                    // erases of blocks holding nothing: without it the kinds would not add up.
                    ("erased", PageKind::None),
                    ("data", PageKind::Data),
                    ("translation", PageKind::Translation),
                    ("dtp", PageKind::Dtp),
                ]
                .into_iter()
                .map(|(name, k)| (name, KindMetrics::of(&c.by_kind[k as usize])))
                .collect(),
                table_2_5: Table25::of(
                    &c.by_kind[PageKind::Data as usize],
                    &c.by_kind[PageKind::Translation as usize],
                ),
            },
            gc: GcMetrics {
                runs: s.gc_runs,
                valid_copies: s.gc_valid_copies,
                merges: MergeCounts { switch: s.merges[0], partial: s.merges[1], full: s.merges[2] },
                cross_unit_blocks: s.cross_unit_blocks,
                log_blocks: (s.merges.iter().sum::<u64>() > 0
                    || s.log.peak_blocks > 0
                    || s.log.oob_scans > 0)
                    .then(|| {
                        let l = &s.log;
                        let kinds = |v: &[u64; 3]| MergeCounts { switch: v[0], partial: v[1], full: v[2] };
                        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
                        let ppb = u64::from(self.device.flash().pages_per_block());
                        LogBlockMetrics {
                            merge_copies: kinds(&l.merge_copies),
                            merge_erases: MergeErases {
                                switch: l.merge_erases[0],
                                partial: l.merge_erases[1],
                                full: l.merge_erases[2],
                                empty: l.empty_erases,
                            },
                            blocks_merged: l.blocks_merged,
                            utilization_at_merge: ratio(l.pages_at_merge, l.blocks_merged * ppb),
                            mean_association_degree: ratio(l.full_degree, l.full_victims),
                            oob_scans: l.oob_scans,
                            padding_pages: l.padding_pages,
                            peak_log_blocks: l.peak_blocks,
                            effective_over_provisioning: ratio(
                                l.peak_blocks,
                                u64::from(self.device.flash().blocks()),
                            ),
                        }
                    }),
            },
            mapping: spec
                .is_some_and(|sp| sp.has_mapping_cache())
                .then(|| HitRatio::of(s.mapping_hits, s.mapping_misses)),
            buffer: spec
                .is_some_and(|sp| sp.has_data_buffer())
                .then(|| HitRatio::of(s.buffer_hits, s.buffer_misses)),
            translation_pages: spec
                .is_some_and(|sp| sp.has_mapping_cache())
                .then(|| TranslationMetrics::of(s)),
            response_us: Distribution::of(&all),
            response_cdf_us: CdfPoint::of(&all),
            response_by_op_us: ResponseByOp {
                read: Distribution::of(self.response.read()),
                write: Distribution::of(self.response.write()),
            },
            time_breakdown_us: TimeBreakdown::of_ns(
                self.host.service.host_ns,
                self.host.service.meta_ns,
                self.host.service.ram_ns,
                self.host.service.lru_ns,
                self.host.busy_ns,
            ),
            metadata: self.device.meta_hook().and_then(|h| h.summary()),
            service_time_us: ServiceTime {
                total: us(self.host.flash_ns()
                    + self.host.service.ram_ns
                    + self.host.service.lru_ns
                    + self.host.service.host_ns
                    + self.host.service.meta_ns),
                flash: us(self.host.flash_ns()),
                ram: us(self.host.service.ram_ns),
                lru: us(self.host.service.lru_ns),
                host: us(self.host.service.host_ns),
                metadata: us(self.host.service.meta_ns),
                flash_by_purpose: Purpose::ALL
                    .iter()
                    .map(|&p| (p.name(), us(self.host.service.flash_ns[p as usize])))
                    .collect(),
            },
            waf: self.waf(),
            ram_bytes: self.ftl.ram_bytes(),
            erase_count: EraseSpread {
                min: erases.iter().copied().min().unwrap_or(0).into(),
                max: erases.iter().copied().max().unwrap_or(0).into(),
                mean: erases.iter().map(|&e| f64::from(e)).sum::<f64>() / erases.len().max(1) as f64,
            },
            integrity_errors: self.oracle.errors(),
            requests_done: self.cursor as u64,
            sim_time_us: us(self.sim_time_ns),
            prefill: self.prefill_summary.clone(),
            series: self.series.points().to_vec(),
            caching_groups: self.ftl.group_sizes().map(|sizes| crate::metrics::GroupMetrics::of(&sizes)),
            utilization: {
                let logical = self.oracle.logical_pages();
                let share = |n: u64| n as f64 / logical.max(1) as f64;
                Utilization {
                    logical_pages: logical,
                    at_end: share(self.oracle.live_pages()),
                    peak: share(self.oracle.peak_live_pages()),
                    device_peak: self.oracle.peak_live_pages() as f64
                        / (u64::from(self.device.flash().blocks())
                            * u64::from(self.device.flash().pages_per_block()))
                        .max(1) as f64,
                }
            },
        }
    }
}
