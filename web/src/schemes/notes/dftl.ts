/** Scheme notes for `dftl` (core-wasm/engine/src/ftl/dftl.rs). */
import type { SchemeNotes } from './types';

export const dftlNotes: SchemeNotes = {
  id: 'dftl',
  title: 'DFTL: demand-based page mapping (GTD + CMT)',
  summary:
    'Page-level mapping with the map on flash: RAM holds only a directory of translation pages and a cache of recently used mapping entries.',
  howItWorks: [
    'The full LPN → PPN map is stored on flash in translation pages (purple blocks in the grid), page_bytes / 4 entries each. The Global Translation Directory (GTD), always in RAM, says where each translation page is.',
    'The Cached Mapping Table (CMT) keeps single mapping entries, least-recently-used first out. A hit costs only RAM. A miss reads the entry’s translation page from flash (one page read, e.g. 25 µs) and loads just that entry.',
    'When the CMT is full, the LRU entry is evicted. A clean entry is dropped; a dirty one (its data moved since it was loaded) must be written back: read its translation page, update it, program it to a new page and point the GTD there.',
    'Garbage collection is greedy over data and translation blocks. A translation-block victim’s pages are copied and the GTD updated. A data-block victim’s pages are copied; cached entries are fixed in RAM (lazy copying) and the others in one translation-page rewrite per page touched (batch update).',
  ],
  sources: [
    {
      cite: 'Gupta, Kim, Urgaonkar, DFTL (ASPLOS’09), as summarised in related-work.md §5.3',
      what: 'GTD + CMT structures, miss and dirty-eviction handling, GC with batch update and lazy copying.',
    },
    {
      cite: 'Qin, thesis (seed 002) §1.1.3, §2.1, §2.4.2 and Fig 2.5',
      what: 'DFTL as the DAC baseline: GTD in RAM, on-demand entries with LRU; one translation-page write per dirty kick-out (Fig 2.5a).',
    },
    {
      cite: 'Chen et al., HCFTL (seed 001) §II.A',
      what: 'on a miss only the requested entry is loaded; the rest of the translation page is discarded.',
    },
    {
      cite: 'Wang & Wong, TreeFTL (seed 000) §II.A–B, §III.A',
      what: 'DFTL loads entries on demand; batch update groups evicted entries of the same translation page.',
    },
  ],
  choices: [
    'dftl.batch_update (default on, the original paper): a dirty eviction writes back every dirty cached entry of the same translation page and marks them clean. Off gives the thesis’ model: one translation-page write per dirty victim.',
    'A write miss loads the entry first (a translation-page read) to learn which page to invalidate.',
    'CMT entries cost 8 bytes (LPN + PPN), GTD entries 4; the CMT gets the RAM budget left after the GTD (ram.bytes; default a quarter of a full page map). Each CMT search is one cache operation, each table update one RAM access.',
    'Translation-page updates done by GC are charged to GC, not to mapping, in the request inspector.',
    'The CMT is plain LRU (the paper’s segmented LRU is not modelled); data and translation pages are written to separate open blocks.',
    'The GC victim is chosen greedily by default (the paper uses cost-benefit); gc.victim selects greedy, cost-benefit or FIFO. GC starts at gc.reserve_blocks free blocks and collects until the pool is above it.',
  ],
  watch: [
    'Jump to the next miss (M): the narration reads “CMT miss for LPN …: read translation page …” with the read’s cost.',
    'Dirty evictions show up as translation-page programs in the middle of a data request — the mapping share of its response time.',
  ],
  vocabulary: { entry: 'CMT' },
  stops: ['gc', 'miss'],
};
