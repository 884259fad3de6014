/** Scheme notes for `page` (core-wasm/engine/src/ftl/page.rs). */
import type { SchemeNotes } from './types';

export const pageNotes: SchemeNotes = {
  id: 'page',
  title: 'Page-level mapping (PFTL / PMAP)',
  summary:
    'The ideal page-level FTL: every logical page can live in any physical page, and the whole map sits in RAM, so translation never touches flash.',
  howItWorks: [
    'The table LPN → PPN lives in RAM, 4 bytes per logical page. A read looks its page up and reads it: one flash read.',
    'A write goes to the next free page of the open block (green outline in the grid); the page holding the old copy is marked invalid and the table entry updated. Flash is never overwritten in place.',
    'When the free-block pool falls to the GC reserve, garbage collection picks a victim greedily — the block with the fewest valid pages — copies its valid pages to the open block and erases it. The write that needed the space waits for all of that.',
    'So a GC costs V × (T_read + T_program) + T_erase for a victim with V valid pages; with the thesis’ small-block timings and V = 5 that is 5 × (36 + 200) + 2000 = 3,180 µs, against 200 µs for a write without GC.',
  ],
  sources: [
    {
      cite: 'Qin, thesis (seed 002) §4.2.2 “Garbage Collection Overhead”',
      what: 'greedy victim (“the block with the fewest valid pages”), one victim per collection, copy-then-erase, the cost formula and the Fig 4.1 example (our engine tests reproduce its 3,180 µs).',
    },
    {
      cite: 'Shin (seed 004) §2 “Flash Translation Layer”, eq. (1)',
      what: 'write to a clean page and invalidate the old one; GC = V·(T_read + T_write) + T_erase; greedy selection gives the shortest GC. §3: unused space acts as over-provisioning, so utilization drives GC cost.',
    },
  ],
  choices: [
    'GC copies share the open block with host writes (no separate GC write frontier).',
    'GC runs when the free pool falls to gc.reserve_blocks (default 2) and keeps collecting until the pool is above the reserve again; open blocks are never victims; greedy ties go to the lowest block number (deterministic runs).',
    'The victim policy is an option, gc.victim: greedy (default, the sources’ rule), cost-benefit or FIFO, for comparing policies on the same trace.',
    'A mapping entry costs 4 bytes of RAM; each table lookup or update is one RAM access (0 ns by default, as the sources ignore it).',
    'With several units (channels × ways) one block per unit is open and successive page writes go round-robin over the units, so their programs overlap in time; a block belongs to unit block mod units.',
    'Pages a trace reads before writing are pre-filled before measurement, so reads find data (workload.prefill_read_pages).',
  ],
  watch: [
    'Jump to the next GC (G): the victim is outlined; step one operation at a time (.) to watch each valid page move and the erase.',
    'Raise utilization and GCs get dearer — victims hold more valid pages (Shin’s point).',
  ],
  stops: ['gc'],
};
