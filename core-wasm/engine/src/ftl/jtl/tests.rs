use super::scheme::Jtl;
use super::*;
use crate::config::SimConfig;
use crate::events::{HostOp, Purpose};
use crate::flash::PageTag;
use crate::ftl::demand::{testing, TpCause};
use crate::ftl::{BuildCtx, Ftl};
use crate::invariants::check;
use crate::trace::generate::rng::SplitMix64;

/// 32 blocks x 8 pages of 32 bytes: 8 entries per translation page, a 96-byte GTD, and a
/// 192-byte cache: a 96-byte mapping half (12 entries: levels 0–2, 7 entries) and a 96-byte
/// data half (3 pages: group 0 = levels 0 and 1). Half a block = 4 pages, so a request of
/// 5 or more is sequential. (`Rig::write` writes a request, checking every invariant.)
type Rig = testing::Rig<Jtl>;

fn rig(seed: u64, options: JtlOptions) -> Rig {
    let mut config = testing::small_config(32, 8, 32, 96 + 192);
    config.seed = seed;
    let ftl = Jtl::new(&BuildCtx::of(&config), options).unwrap();
    assert_eq!((ftl.levels.depth(), ftl.levels.group0(), ftl.halves), (3, 2, (96, 96)));
    Rig::new(ftl, &config)
}

impl Rig {
    /// Reads `lpns` as one request, checking each answer against the oracle.
    fn read(&mut self, lpns: &[u32]) {
        self.ftl.begin_request(HostOp::Read, lpns, &mut self.dev).unwrap();
        for &lpn in lpns {
            let got = self.ftl.read(lpn, &mut self.dev).unwrap();
            assert_eq!(got.map_or(0, |t| t.version), self.oracle.expected(lpn), "LPN {lpn}");
        }
        self.ftl.end_request(&mut self.dev).unwrap();
        check(&self.ftl, &self.dev, &self.oracle).unwrap();
    }

    /// (translation-page reads, data-page reads, data-page programs, translation programs).
    fn flash_ops(&self) -> (u64, u64, u64, u64) {
        let c = &self.dev.counters;
        let (t, d) = (Purpose::Translation as usize, Purpose::Data as usize);
        (c.page_reads[t], c.page_reads[d], c.page_writes[d], c.page_writes[t])
    }

    fn level(&self, lpn: u32) -> Option<usize> {
        self.ftl.levels.level_of(lpn)
    }
}

/// The push-down: LPNs 0, 1, 2 fill levels 0 and 1 (group 0, all three pages in RAM, no
/// flash). Writing 3 passes 2 down to level 1, which is full: a random one of its entries
/// [0, 1] — the generator's fourth draw (three draws picked level 0's only entry) — goes
/// to level 2, leaving group 0, so its page is programmed. Over a few seeds both happen.
#[test]
fn a_full_level_pushes_a_random_entry_down_and_group_0_flushes_its_page() {
    let mut seen = [false; 2];
    for seed in 0..8 {
        let mut r = rig(seed, JtlOptions::default());
        r.write(&[0]);
        r.write(&[1]);
        r.write(&[2]);
        assert_eq!([0, 1, 2].map(|l| r.level(l)), [Some(1), Some(1), Some(0)], "seed {seed}");
        assert_eq!(r.flash_ops(), (0, 0, 0, 0), "three pages buffered");
        let mut rng = SplitMix64::new(seed);
        (0..3).for_each(|_| {
            rng.below(1);
        });
        let out = [0, 1][rng.below(2) as usize];
        seen[out as usize] = true;
        r.write(&[3]);
        assert_eq!(r.level(3), Some(0));
        assert_eq!(r.level(2), Some(1));
        assert_eq!(r.level(out), Some(2), "seed {seed}: LPN {out} passed down");
        assert_eq!(r.level(1 - out), Some(1));
        assert_eq!(r.flash_ops(), (0, 0, 1, 0), "seed {seed}: one page flushed");
        assert!(!r.ftl.holds_in_ram(out) && r.ftl.holds_in_ram(1 - out));
        assert_eq!(r.dev.stats.prunes, 1);
        r.read(&[out]); // its entry is still in RAM, its data on flash
        assert_eq!(r.flash_ops().0, 0, "a mapping hit in group 1");
    }
    assert_eq!(seen, [true, true], "both entries of level 1 get picked over the seeds");
}

/// Re-using an entry takes it out of its level: the moves stop at the gap it left, so a
/// hit in group 0 flushes nothing, and a hit in group 1 flushes exactly one page.
#[test]
fn a_hit_moves_its_entry_to_level_0_and_the_moves_stop_at_its_gap() {
    let mut r = rig(3, JtlOptions::default());
    for lpn in 0..4 {
        r.write(&[lpn]);
    }
    let before = r.flash_ops();
    let in_level_1 = *[0, 1, 2].iter().find(|&&l| r.level(l) == Some(1)).unwrap();
    r.write(&[in_level_1]);
    assert_eq!(r.flash_ops(), before, "a buffer hit in group 0: no flash");
    assert_eq!((r.level(in_level_1), r.level(3)), (Some(0), Some(1)));
    assert_eq!(r.dev.stats.buffer_hits, 1);
    let in_level_2 = *[0, 1, 2].iter().find(|&&l| r.level(l) == Some(2)).unwrap();
    r.write(&[in_level_2]);
    assert_eq!(r.flash_ops().2, before.2 + 1, "one page pushed out of group 0");
    assert_eq!(r.ftl.levels.len(), 4, "no entry left RAM");
    assert_eq!((r.dev.stats.mapping_hits, r.dev.stats.mapping_misses), (2, 4));
}

/// An entry passed beyond the last level leaves RAM; its translation page is rewritten
/// because the entry is dirty (it points to the page flushed from group 0).
#[test]
fn an_entry_pushed_past_the_last_level_is_written_back() {
    let mut r = rig(0, JtlOptions::default());
    for lpn in 0..7 {
        r.write(&[lpn * 8]);
    }
    assert_eq!(r.ftl.levels.len(), 7);
    assert_eq!(r.dev.stats.tpage_writes[TpCause::Eviction as usize], 0);
    r.write(&[100]);
    assert_eq!(r.ftl.levels.len(), 7);
    assert_eq!(r.dev.stats.tpage_writes[TpCause::Eviction as usize], 1);
    r.read(&(0..7).map(|l| l * 8).collect::<Vec<_>>()); // sequential (7 pages): every version right
}

/// A read caches its page clean: a second read is served from RAM, and pushing the page out
/// of group 0 drops it without a program. Without `cache_reads` the second read goes to
/// flash again.
#[test]
fn reads_cache_their_page_clean_and_a_clean_page_leaves_without_a_program() {
    for cache_reads in [true, false] {
        let options = JtlOptions {
            cache_reads,
            sequential_entries: SequentialEntries::NotCached,
            ..JtlOptions::default()
        };
        let mut r = rig(0, options);
        r.write(&[0, 1, 2, 3, 4]); // sequential: on flash, no entry cached
        r.dev.reset_counters();
        r.read(&[1]);
        r.read(&[1]);
        assert_eq!(r.flash_ops().1, if cache_reads { 1 } else { 2 }, "cache_reads {cache_reads}");
        for lpn in [8, 9, 10, 11] {
            r.read(&[lpn]); // never written: pushes 1 out of group 0
        }
        assert_eq!(r.level(1), Some(2));
        assert_eq!(r.flash_ops().2, 0, "nothing programmed");
    }
}

/// Sequential requests bypass RAM: five pages are programmed at once, and a buffered copy
/// of one of them is dropped, not written back, its entry updated where it was (level 0).
/// The other entries enter the top of group 1 (level 2; by default) or stay out of RAM and
/// are written in one translation-page rewrite at the end of the request (`not_cached`).
/// The buffer is not consulted either way.
#[test]
fn sequential_requests_are_written_through() {
    for (entries, group1, tpage_programs) in
        [(SequentialEntries::Group1, 4, 0), (SequentialEntries::NotCached, 0, 1)]
    {
        let mut r = rig(0, JtlOptions { sequential_entries: entries, ..JtlOptions::default() });
        r.write(&[2]);
        assert!(r.ftl.holds_in_ram(2));
        r.dev.reset_counters();
        r.write(&[0, 1, 2, 3, 4]);
        assert_eq!(r.flash_ops(), (0, 0, 5, tpage_programs), "{entries:?}: five programs");
        assert_eq!(r.ftl.levels.len(), 1 + group1, "{entries:?}");
        assert_eq!(r.level(2), Some(0));
        assert_eq!(r.level(0), (group1 > 0).then_some(2));
        assert!(!r.ftl.holds_in_ram(2));
        assert_eq!((r.dev.stats.buffer_hits, r.dev.stats.buffer_misses), (0, 0));
        assert_eq!((r.dev.stats.mapping_hits, r.dev.stats.mapping_misses), (1, 4));
        r.read(&[0, 1, 2, 3, 4]);
        assert_eq!(r.ftl.cached_pages, 0, "{entries:?}: sequential reads cache no data");
        assert_eq!(r.dev.stats.mapping_hits, 1 + 1 + group1 as u64);
    }
}

/// The halves are fixed: whatever the workload, the mapping half never lends RAM to data.
/// Many scattered reads fill the mapping half (entries) while the data half holds three
/// pages at most; flush writes the written pages and the dirty entries.
#[test]
fn the_mapping_half_is_fixed_and_flush_writes_everything() {
    let mut r = rig(5, JtlOptions::default());
    for lpn in 0..20 {
        r.write(&[lpn * 7 % 150]);
    }
    let (map, buf) = r.ftl.used();
    assert_eq!((map, buf), (7 * ENTRY_BYTES, 3 * 32), "seven entries, three pages");
    assert_eq!(r.ftl.ram_bytes(), 96 + 7 * 8 + 3 * 32);
    let split = r.ftl.ram_split().unwrap();
    assert_eq!((split.mapping_bytes, split.buffer_bytes), (96 + 7 * 8, 3 * 32));
    r.ftl.flush(&mut r.dev).unwrap();
    check(&r.ftl, &r.dev, &r.oracle).unwrap();
    assert!(r.ftl.levels.iter().all(|s| !s.dirty && s.data().is_none_or(|d| !d.dirty)));
    assert!(r.ftl.map_view().unwrap().held.is_empty());
}

/// A trim drops a buffered page and unmaps its entry in place.
#[test]
fn a_trim_unmaps_in_place() {
    let mut r = rig(0, JtlOptions::default());
    r.write(&[1]);
    r.write(&[9]);
    for lpn in [1, 40] {
        r.ftl.begin_request(HostOp::Trim, &[lpn], &mut r.dev).unwrap();
        r.ftl.trim(lpn, &mut r.dev).unwrap();
        r.ftl.end_request(&mut r.dev).unwrap();
        r.oracle.trim(lpn);
        check(&r.ftl, &r.dev, &r.oracle).unwrap();
    }
    assert_eq!((r.level(1), r.level(9)), (Some(1), Some(0)), "recency unchanged");
    assert!(!r.ftl.holds_in_ram(1));
    assert_eq!(r.ftl.read(1, &mut r.dev).unwrap(), None::<PageTag>);
}

/// Too little RAM is refused with the budget named.
#[test]
fn impossible_configs_are_refused() {
    let mut config = SimConfig::default();
    config.ram.bytes = 1;
    let e = Jtl::new(&BuildCtx::of(&config), JtlOptions::default()).unwrap_err();
    assert!(e.to_string().contains("JTL") && e.to_string().contains("ram.bytes"), "{e}");
}

/// A page written in RAM counts as held with its version, never as lost, and the checks
/// see through it: a buffered page with a stale version (a lost update) is caught.
#[test]
fn a_buffered_page_is_held_and_a_stale_one_is_caught() {
    let mut r = rig(0, JtlOptions::default());
    r.write(&[1]);
    r.write(&[1]);
    assert_eq!(r.ftl.map_view().unwrap().held, vec![(1, 2)]);
    r.ftl.levels.get_mut(1).unwrap().set_data(Some(levels::Data { version: 1, dirty: true }));
    let e = check(&r.ftl, &r.dev, &r.oracle).unwrap_err();
    assert!(e.to_string().contains("RAM holds LPN 1 at version 1"), "{e}");
}

/// `read_in` (TreeFTL's option, the same meaning): a write that misses group 0 reads the
/// page's old flash copy first; a page never written, or one group 0 holds, reads nothing.
#[test]
fn read_in_reads_the_old_copy_on_a_write_miss() {
    let run = |read_in| {
        let mut r = rig(1, JtlOptions { read_in, cache_reads: false, ..JtlOptions::default() });
        r.write(&[0]);
        r.ftl.flush(&mut r.dev).unwrap(); // LPN 0 on flash (its page stays cached, clean)
        r.write(&[1, 2, 3, 4, 5, 6]); // sequential: to flash, group 0 untouched
        r.write(&[9]); // never written
        let before = r.flash_ops().1;
        r.write(&[6]); // miss, old copy on flash
        r.write(&[6]); // hit
        r.flash_ops().1 - before
    };
    assert_eq!((run(false), run(true)), (0, 1));
}

/// Every access to an entry goes through the metadata path, as an update when the entry
/// changes: a random write and a sequential write update their entries, a read looks its
/// entry up (so a write-through placement model programs JTL's updates).
#[test]
fn entry_accesses_reach_the_metadata_path_as_lookups_or_updates() {
    use crate::meta::MetaKind::MapCache;
    let mut r = rig(0, JtlOptions::default());
    let rec = testing::MetaRecorder::install(&mut r.dev);
    let take = || rec.take();
    r.write(&[3]);
    assert_eq!(take(), vec![(MapCache, true, 3)]);
    r.read(&[3]);
    assert_eq!(take(), vec![(MapCache, false, 3)]);
    r.write(&[10, 11, 12, 13, 14]); // sequential: entries updated where they are
    let seq: Vec<_> = take().into_iter().filter(|a| a.0 == MapCache).collect();
    assert_eq!(seq, (10..15).map(|l| (MapCache, true, l)).collect::<Vec<_>>());
}
