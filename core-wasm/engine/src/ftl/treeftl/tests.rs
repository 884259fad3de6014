use super::tree::{TreeFtl, IN_RAM};
use super::*;
use crate::config::SimConfig;
use crate::events::{HostOp, Purpose};
use crate::flash::PageTag;
use crate::ftl::demand::{testing, TpCause};
use crate::invariants::check;

/// 32 blocks x 8 pages of 32 bytes: 8 entries per translation page, 192 logical pages in 24
/// translation pages (a 96-byte GTD). RAM: the GTD + `nodes` pages. Half a block = 4 pages,
/// so a request of 5 or more is sequential. (`Rig::write` writes a request, checking every
/// invariant.)
pub(super) type Rig = testing::Rig<TreeFtl>;

pub(super) fn rig(nodes: u64, victims: Victims, options: TreeOptions) -> Rig {
    let config = testing::small_config(32, 8, 32, 96 + nodes * 32);
    let ftl = TreeFtl::new(&BuildCtx::of(&config), options, victims).unwrap();
    assert_eq!(ftl.capacity(), nodes * 32);
    Rig::new(ftl, &config)
}

impl Rig {
    pub(super) fn read(&mut self, lpn: u32) -> Option<PageTag> {
        self.ftl.begin_request(HostOp::Read, &[lpn], &mut self.dev).unwrap();
        let got = self.ftl.read(lpn, &mut self.dev).unwrap();
        self.ftl.end_request(&mut self.dev).unwrap();
        assert_eq!(got.map(|t| t.version).unwrap_or(0), self.oracle.expected(lpn));
        got
    }

    /// (translation-page reads, data-page reads, data-page programs) since the last reset.
    fn flash_ops(&self) -> (u64, u64, u64) {
        let c = &self.dev.counters;
        let (t, d) = (Purpose::Translation as usize, Purpose::Data as usize);
        (c.page_reads[t], c.page_reads[d], c.page_writes[d])
    }

    fn reset(&mut self) {
        self.dev.reset_counters();
    }
}

/// Fig. 2's three write cases. Data of LPNs 0–5 and 8–13 is put on flash by sequential
/// requests (so translation pages 0 and 1 exist on flash), and translation pages 2 and 3
/// are loaded after them so that page 0 leaves RAM (three nodes). Then:
/// (C) LPN 0: neither its CTP nor its data page is cached — two reads (C-2, C-4);
/// (B) LPN 1: CTP cached, data page on flash — one read (B-3);
/// (A) LPN 1 again: both cached — no flash operation at all.
#[test]
fn the_three_write_cases_read_two_one_and_no_pages() {
    let mut r = rig(3, Victims::Group, TreeOptions::default());
    r.write(&[0, 1, 2, 3, 4, 5]);
    r.write(&[8, 9, 10, 11, 12, 13]);
    r.write(&[16, 17, 18, 19, 20]);
    r.write(&[24, 25, 26, 27, 28]);
    assert!(!r.ftl.groups.contains(&0), "translation page 0 was pruned");
    r.reset();
    r.write(&[0]);
    assert_eq!(r.flash_ops().0, 1, "case C: one translation-page read");
    assert_eq!(r.flash_ops().1, 1, "case C: one data-page read");
    assert!(r.ftl.holds_in_ram(0));
    r.reset();
    r.write(&[1]);
    assert_eq!((r.flash_ops().0, r.flash_ops().1), (0, 1), "case B: the data page only");
    assert_eq!((r.dev.stats.buffer_hits, r.dev.stats.buffer_misses), (0, 1));
    r.reset();
    r.write(&[1]);
    assert_eq!(r.flash_ops(), (0, 0, 0), "case A: RAM only");
    assert_eq!(r.dev.counters.page_writes.iter().sum::<u64>(), 0);
    assert_eq!((r.dev.stats.buffer_hits, r.dev.stats.mapping_hits), (1, 1));
    r.reset();
    assert_eq!(r.read(1).map(|t| t.version), Some(r.oracle.expected(1)));
    assert_eq!(r.flash_ops(), (0, 0, 0), "served from RAM");
}

/// Without read-in (`read_in: false`), case B reads nothing.
#[test]
fn without_read_in_a_write_miss_reads_no_data_page() {
    let mut r = rig(4, Victims::Group, TreeOptions { read_in: false, ..TreeOptions::default() });
    r.write(&[0, 1, 2, 3, 4, 5]);
    r.reset();
    r.write(&[1]);
    assert_eq!(r.flash_ops(), (0, 0, 0));
    assert!(r.ftl.holds_in_ram(1));
}

/// A random read loads the CTP but reads the data page from flash without caching it:
/// reading twice reads flash twice and adds no CDP.
#[test]
fn reads_load_the_ctp_but_do_not_cache_data() {
    let mut r = rig(4, Victims::Group, TreeOptions::default());
    r.write(&[8, 9, 10, 11, 12]);
    r.ftl.flush(&mut r.dev).unwrap();
    r.reset();
    r.read(9);
    r.read(9);
    assert_eq!(r.flash_ops(), (0, 2, 0));
    assert_eq!(r.ftl.counts(), (1, 0), "one CTP, no CDP");
    r.read(40); // translation page 5, never written: loaded without a read
    assert_eq!(r.ftl.counts(), (2, 0));
    assert_eq!((r.dev.stats.mapping_hits, r.dev.stats.mapping_misses), (2, 1));
}

/// A request of more than half a block bypasses RAM: its pages are programmed at once, and
/// a buffered copy of one of them is dropped (superseded), not written back.
#[test]
fn sequential_requests_bypass_the_buffer() {
    let mut r = rig(5, Victims::Group, TreeOptions::default());
    r.write(&[2]);
    assert!(r.ftl.holds_in_ram(2));
    r.reset();
    r.write(&[0, 1, 2, 3, 4]);
    assert_eq!(r.flash_ops(), (0, 0, 5), "five programs, no write-back of the old LPN 2");
    assert_eq!(r.ftl.counts(), (1, 0));
    assert_eq!((r.dev.stats.buffer_hits, r.dev.stats.buffer_misses), (0, 0), "the buffer is not consulted");
    r.write(&[0, 1, 2, 3]); // four pages: random, buffered
    assert_eq!(r.ftl.counts(), (1, 4));
}

/// A caching-group prune. RAM holds three nodes: CTP 0 with CDPs 1 and 0. Loading CTP 1
/// needs a node: the LRU group (0) is pruned whole — its CDPs programmed in LPN order, then
/// its dirty CTP programmed (nothing read) — and leaves. `data_first` flushes the CDPs and
/// keeps the CTP; Tree-PL flushes only the least recently used page (CDP 1).
#[test]
fn a_caching_group_is_pruned_whole_data_first_or_page_by_page() {
    let cases = [
        (Victims::Group, Prune::WholeGroup, (1, 0), 2, 1),
        (Victims::Group, Prune::DataFirst, (2, 0), 2, 0),
        (Victims::Page, Prune::WholeGroup, (2, 1), 1, 0),
    ];
    for (victims, prune, counts, programs, ctp_writes) in cases {
        let mut r = rig(3, victims, TreeOptions { prune, ..TreeOptions::default() });
        r.write(&[1]);
        r.write(&[0]);
        assert_eq!(r.ftl.group_entries(0)[..2], [IN_RAM, IN_RAM]);
        r.reset();
        assert_eq!(r.read(8), None);
        let what = format!("{victims:?} {prune:?}");
        assert_eq!(r.ftl.counts(), counts, "{what}");
        assert_eq!(r.flash_ops().2, programs, "{what}: data programs");
        assert_eq!(r.dev.stats.tpage_writes[TpCause::Eviction as usize], ctp_writes, "{what}");
        assert_eq!(r.dev.stats.prunes, 1, "{what}");
        if programs == 2 {
            let [p0, p1] =
                [0, 1].map(|l| r.ftl.map_view().unwrap().ram.iter().find(|e| e.0 == l).map(|e| e.1));
            let [p0, p1] =
                [0, 1].map(|l| if ctp_writes == 1 { r.ftl.core.on_flash[l] } else { [p0, p1][l].unwrap() });
            assert!(p0 < p1, "{what}: CDPs flushed in LPN order");
        }
        r.read(1); // checks the version against the oracle
        r.read(0);
    }
}

/// The served group is never pruned whole: with two nodes, writing a second page of the
/// only group flushes its CDP and keeps its CTP.
#[test]
fn the_served_group_keeps_its_ctp() {
    for victims in [Victims::Group, Victims::Page] {
        let mut r = rig(2, victims, TreeOptions::default());
        r.write(&[0]);
        r.write(&[1]);
        assert_eq!(r.ftl.counts(), (1, 1), "{victims:?}");
        assert!(r.ftl.holds_in_ram(1) && !r.ftl.holds_in_ram(0));
        assert!(r.read(0).is_some());
    }
}

/// Flush writes every CDP and dirty CTP; the CTPs stay cached, clean.
#[test]
fn flush_empties_the_buffer_and_cleans_the_ctps() {
    let mut r = rig(4, Victims::Group, TreeOptions::default());
    r.write(&[0]);
    r.write(&[9]);
    let split = |r: &Rig| r.ftl.ram_split().map(|s| (s.mapping_bytes, s.buffer_bytes));
    assert_eq!(split(&r), Some((96 + 2 * 32, 2 * 32)), "GTD and CTPs against CDPs");
    assert_eq!(r.ftl.group_sizes(), Some(vec![1, 1]), "two groups of one CDP");
    r.ftl.flush(&mut r.dev).unwrap();
    assert_eq!(split(&r), Some((96 + 2 * 32, 0)));
    assert_eq!(r.ftl.group_sizes(), Some(vec![0, 0]), "two bare groups left");
    check(&r.ftl, &r.dev, &r.oracle).unwrap();
    assert_eq!(r.ftl.counts(), (2, 0));
    assert!(r.ftl.groups.iter().all(|(_, g)| !g.dirty));
    assert_eq!(r.dev.stats.tpage_writes[TpCause::Flush as usize], 2);
}

/// Too little RAM is refused with the budget named.
#[test]
fn impossible_configs_are_refused() {
    let mut config = SimConfig::default();
    config.ram.bytes = 1;
    let e = TreeFtl::new(&BuildCtx::of(&config), TreeOptions::default(), Victims::Group).unwrap_err();
    assert!(e.to_string().contains("a CTP and a CDP") && e.to_string().contains("ram.bytes"), "{e}");
}

/// The cost model: a selection over 32 768 pages costs more than one over 500 groups, in
/// both the logarithmic and the scanning model.
#[test]
fn page_level_selection_costs_more_than_group_level() {
    let log = cost::LruCost::new(1, 0);
    assert_eq!((log.select_ops(32_768), log.select_ops(500), log.select_ops(0)), (16, 9, 1));
    let scan = cost::LruCost::new(1, 1024);
    assert_eq!((scan.select_ops(32_768), scan.select_ops(500)), (33, 1));
}

/// Tree-PL's node index keeps a CTP and a CDP of the same number apart (a translation page
/// and a logical page may share one), and forgets one without the other.
#[test]
fn the_node_index_keeps_ctps_and_cdps_of_one_number_apart() {
    use super::tree::{NodeIndex, NodeKey};
    use crate::cache::lru::SlotIndex;
    let mut ix = NodeIndex::default();
    ix.insert(NodeKey::Ctp(5), 1);
    ix.insert(NodeKey::Cdp(5), 2);
    ix.insert(NodeKey::Cdp(900), 3);
    assert_eq!((ix.get(&NodeKey::Ctp(5)), ix.get(&NodeKey::Cdp(5))), (Some(1), Some(2)));
    assert_eq!(ix.remove(&NodeKey::Ctp(5)), Some(1));
    assert_eq!((ix.get(&NodeKey::Ctp(5)), ix.get(&NodeKey::Cdp(5))), (None, Some(2)));
    assert_eq!(ix.get(&NodeKey::Ctp(900)), None);
    ix.clear();
    assert_eq!(ix.get(&NodeKey::Cdp(900)), None);
}
