import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine/events';
import { formatNs, narrate } from './narrate';
import { treeCost } from './treeNarration';
import { hasTree, treeOps, treeOpWords } from './treeOps';

const read = (key: number, purpose: 'data' | 'translation', ppn = 9): EngineEvent => ({
  type: 'flash_read',
  ppn,
  block: 1,
  page: 1,
  purpose,
  key,
  ns: 25_000,
});
const prog = (key: number, purpose: 'data' | 'translation', ppn = 20): EngineEvent => ({
  type: 'flash_program',
  ppn,
  block: 2,
  page: 4,
  purpose,
  kind: purpose === 'data' ? 'Data' : 'Translation',
  key,
  version: 3,
  ns: 200_000,
});

describe('tree operations from events', () => {
  it('needs both the CTP and the CDP level', () => {
    expect(hasTree(['translation_page', 'data_page'])).toBe(true);
    expect(hasTree(['entry', 'translation_page'])).toBe(false);
  });

  it('folds a CTP load, a prune of another group and a CDP insert with its read-in (case C)', () => {
    const ops: EngineEvent[] = [
      { type: 'cache_miss', level: 'translation_page', key: 2 },
      read(2, 'translation'),
      { type: 'cache_insert', level: 'translation_page', key: 2, bytes: 2048 },
      { type: 'cache_miss', level: 'data_page', key: 17 },
      // Room for the CDP: group 5 leaves, two CDPs first, then its dirty CTP.
      prog(40, 'data'),
      { type: 'cache_evict', level: 'data_page', key: 40, dirty: true, bytes: 2048 },
      prog(41, 'data', 21),
      { type: 'cache_evict', level: 'data_page', key: 41, dirty: true, bytes: 2048 },
      { type: 'cache_evict', level: 'translation_page', key: 5, dirty: true, bytes: 2048 },
      prog(5, 'translation', 22),
      { type: 'invalidate', ppn: 3 },
      read(17, 'data', 30),
      { type: 'invalidate', ppn: 30 },
      { type: 'cache_insert', level: 'data_page', key: 17, bytes: 2048 },
    ];
    const got = treeOps(ops);
    expect(got.map((o) => [o.op, o.first, o.last, o.ns])).toEqual([
      ['ctp-load', 0, 2, 25_000],
      ['prune', 4, 10, 600_000],
      ['cdp-insert', 11, 13, 25_000],
    ]);
    expect(got.map(treeOpWords)).toEqual([
      'CTP 2 loaded',
      'Prune: CTP 5 left with 2 CDPs flushed, written back',
      'CDP LPN 17 inserted (old page read in)',
    ]);

    // The narration tells each as one line with its flash time, for a scheme whose caches
    // include both tree levels; a scheme without them gets the event-by-event lines.
    const trace = {
      index: 3,
      request: { type: 'request' as const, index: 3, op: 'write' as const, lpn: 17, pages: 1 },
      ops,
    };
    const lines = narrate(trace, 64, { translation_page: 'CTP', data_page: 'CDP' });
    expect(lines.map((l) => [l.first, l.last, l.kind, l.text])).toEqual([
      [
        0,
        2,
        'mapping',
        'CTP load: translation page 2 read from block 1, page 1 and hung under the GTD as a CTP — 25 µs',
      ],
      [3, 3, 'data', 'CDP miss for LPN 17'],
      [
        4,
        10,
        'data',
        'Prune of caching group CTP 5 (least recently used): dirty CDPs LPN 40, 41 programmed to flash, then the dirty CTP written back; the branch leaves RAM — 600 µs',
      ],
      [
        11,
        13,
        'data',
        'CDP insert: LPN 17 buffered in RAM under CTP 2; its old page read in from block 1, page 1 and invalidated — 25 µs',
      ],
    ]);
    expect(narrate(trace, 64, { translation_page: 'CTP' }).length).toBeGreaterThan(4);
  });

  it('tells a data-first prune (the CTP stays) and a sequential write-through', () => {
    const ops: EngineEvent[] = [
      prog(8, 'data'),
      { type: 'cache_evict', level: 'data_page', key: 8, dirty: true },
      prog(64, 'data', 50),
      { type: 'invalidate', ppn: 7 },
    ];
    expect(treeOps(ops).map(treeOpWords)).toEqual([
      'Prune: 1 CDP flushed (the CTP stays)',
      'Bypass: LPN 64 straight to flash',
    ]);
  });

  it('gives each operation the RAM and LRU time charged over its events, and the narration says all three', () => {
    // TreeFTL's order (tree.rs): the GTD look-up (RAM) before the miss counts with the event
    // before it (the request header here); storing the page (RAM) after the read and the
    // LRU touch after the insert belong to the load.
    const ops: EngineEvent[] = [
      { type: 'cache_miss', level: 'translation_page', key: 2 },
      { ...read(2, 'translation'), ram_ns: 2_000 },
      { type: 'cache_insert', level: 'translation_page', key: 2, bytes: 2048, lru_ns: 2_000 },
      { type: 'cache_hit', level: 'data_page', key: 9, ram_ns: 2_000, lru_ns: 4_000 },
      { ...prog(64, 'data', 50), ram_ns: 2_000 },
    ];
    const got = treeOps(ops);
    expect(got.map((o) => [o.op, o.ramNs, o.ns, o.lruNs])).toEqual([
      ['ctp-load', 2_000, 25_000, 2_000],
      ['bypass', 2_000, 200_000, 0],
    ]);
    const trace = {
      index: 3,
      request: { type: 'request' as const, index: 3, op: 'write' as const, lpn: 64, pages: 1 },
      ops,
    };
    const lines = narrate(trace, 64, { translation_page: 'CTP', data_page: 'CDP' }).map((l) => l.text);
    expect(lines[0]).toBe(
      'CTP load: translation page 2 read from block 1, page 1 and hung under the GTD as a CTP — RAM 2 µs, flash 25 µs, LRU 2 µs',
    );
    expect(lines.at(-1)).toBe(
      'Bypass (sequential request): LPN 64 written straight to block 2, page 4, not through RAM — RAM 2 µs, flash 200 µs, LRU 0 µs',
    );
    // Without cost records (an engine that sends none) the line keeps the flash time alone.
    expect(treeCost({ ...got[0], ramNs: undefined, lruNs: undefined }, formatNs)).toBe('25 µs');
    expect(treeCost(got[1], formatNs)).toBe('RAM 2 µs, flash 200 µs, LRU 0 µs');
  });
});
