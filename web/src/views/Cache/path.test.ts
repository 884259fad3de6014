import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine/events';
import type { Structure } from '../../engine/inspection';
import { currentStep, highlights, pathSummary, requestPath } from './path';
import { program } from '../../test/events';

const STRUCTURES: Structure[] = [
  {
    shape: 'list',
    id: 'cmt',
    name: 'CMT',
    level: 'entry',
    capacity: 4,
    len: 1,
    order: 'lru',
    truncated: false,
    entries: [{ key: 5, value: 50, dirty: false }],
  },
  {
    shape: 'list',
    id: 'ghost',
    name: 'Ghost-CMT (evicted from the CMT)',
    level: 'ghost',
    capacity: 4,
    len: 0,
    order: 'fifo',
    truncated: false,
    entries: [],
  },
  { shape: 'table', id: 'gtd', name: 'GTD', len: 4, rows: [{ key: 0, value: 12, in_ram: false }], truncated: false },
  {
    shape: 'ranges',
    id: 'dtp',
    name: 'DTP index (newest first)',
    len: 1,
    truncated: false,
    ranges: [{ id: 0, min: 3, max: 9, ppn: 77 }],
  },
];

/** A DFTL-style miss: lookup misses, the translation page is read, the entry goes in, a
 * dirty victim comes out and its translation page is written back. */
const MISS: EngineEvent[] = [
  { type: 'cache_miss', level: 'entry', key: 7 },
  { type: 'flash_read', ppn: 40, block: 5, page: 0, purpose: 'translation', key: 0, ns: 25000 },
  { type: 'cache_insert', level: 'entry', key: 7, bytes: 8 },
  { type: 'cache_evict', level: 'entry', key: 5, dirty: true, bytes: 8 },
  { type: 'flash_read', ppn: 41, block: 5, page: 1, purpose: 'translation', key: 1, ns: 25000 },
  program({ ppn: 60, block: 7, page: 4, purpose: 'translation', kind: 'Translation', key: 1, version: 2, ns: 200000 }),
  { type: 'invalidate', ppn: 41 },
  { type: 'flash_program', ppn: 61, block: 7, page: 5, purpose: 'data', kind: 'Data', key: 7, version: 1, ns: 200000 },
];

describe('requestPath', () => {
  it('turns a miss into lookup → translation-page read → insert → evict → read → write back, skipping data work', () => {
    const path = requestPath(MISS, STRUCTURES);
    expect(path.map((s) => [s.op, s.kind])).toEqual([
      [0, 'miss'],
      [1, 'tp-read'],
      [2, 'insert'],
      [3, 'evict'],
      [4, 'tp-read'],
      [5, 'tp-write'],
    ]);
    expect(path[3].dirty).toBe(true);
  });

  it("names structures in the scheme's words, from the inspection before the spec's vocabulary", () => {
    const [miss, read] = requestPath(MISS, STRUCTURES, { entry: 'mapping table' });
    expect(miss.text).toBe('Look up LPN 7 in the CMT: miss');
    expect(read.text).toBe('Read translation page 0 from flash (block 5, page 0)');
    const noList = requestPath([{ type: 'cache_hit', level: 'translation_page', key: 2 }], STRUCTURES, {
      translation_page: 'CTP cache',
    });
    expect(noList[0].text).toBe('Look up translation page 2 in the CTP cache: hit');
    expect(noList[0].targets).toEqual([]); // no structure of that level to light up
  });

  it('points cache events at the list of their level and translation pages at tables by key and ranges by flash page', () => {
    const path = requestPath(MISS, STRUCTURES);
    expect(path[0].targets).toEqual([{ structure: 'cmt', key: 7 }]);
    expect(path[1].targets).toEqual([{ structure: 'gtd', key: 0 }]);
    const ghost = requestPath([{ type: 'cache_insert', level: 'ghost', key: 5 }], STRUCTURES);
    expect(ghost[0].targets).toEqual([{ structure: 'ghost', key: 5 }]);
    expect(ghost[0].text).toBe('Insert LPN 5 into the Ghost-CMT'); // the name without its explanation
    const dtpRead = requestPath(
      [{ type: 'flash_read', ppn: 77, block: 9, page: 5, purpose: 'translation', key: 3, ns: 1 }],
      STRUCTURES,
    );
    // A page a range index points at is that entry's page, not the translation page its key names.
    expect(dtpRead[0].text).toBe('Read flash page 77 (DTP index entry, keys 3–9)');
    expect(dtpRead[0].targets).toEqual([{ structure: 'dtp', ppn: 77 }]);
  });

  it('counts pages of a kind a scheme adds as mapping writes, named by the engine vocabulary', () => {
    const dtp = program({ ppn: 78, block: 9, page: 6, purpose: 'translation', kind: 'Dtp', key: 4, version: 1 });
    const [w] = requestPath([dtp], STRUCTURES, {}, { dtp: 'Dynamic translation page' });
    expect(w.kind).toBe('tp-write');
    // No GTD row (its key is no translation page): the range index it enters, by flash page.
    expect(w.targets).toEqual([{ structure: 'dtp', ppn: 78 }]);
    expect(w.text).toBe('Write dynamic translation page 4 to block 9, page 6');
  });

  it("treats the spec's name for a level without a list as the range index of that name (HCFTL's DTP index)", () => {
    const vocab = { translation_page: 'DTP index' };
    const [hit] = requestPath([{ type: 'cache_hit', level: 'translation_page', key: 0 }], STRUCTURES, vocab);
    expect(hit.text).toBe('Look up in the DTP index: hit, entry 0 (keys 3–9)');
    expect(hit.targets).toEqual([{ structure: 'dtp', ppn: 77 }]);
    const [miss] = requestPath([{ type: 'cache_miss', level: 'translation_page', key: 12 }], STRUCTURES, vocab);
    expect(miss.text).toBe('Look up LPN 12 in the DTP index: miss');
    expect(miss.targets).toEqual([{ structure: 'dtp' }]);
  });

  it('tells a GC move of a translation page from a write-back', () => {
    const gc: EngineEvent = program({
      ppn: 9,
      block: 1,
      page: 1,
      purpose: 'gc',
      kind: 'Translation',
      key: 2,
      version: 3,
      ns: 1,
    });
    expect(requestPath([gc], STRUCTURES)[0].text).toMatch(/^GC moves translation page 2/);
  });
});

describe('currentStep and highlights', () => {
  const path = requestPath(MISS, STRUCTURES);

  it('follows the timeline op by op, staying on a step while data work follows it', () => {
    expect(currentStep(path, 0)).toBe(-1);
    expect(currentStep(path, 1)).toBe(0); // the miss applied
    expect(currentStep(path, 2)).toBe(1); // the translation-page read
    expect(currentStep(path, 7)).toBe(5); // the invalidation is no step
    expect(currentStep(path, MISS.length)).toBe(5);
  });

  it('lights the item of the current step in each structure it concerns, and nothing before the first', () => {
    expect(highlights(path, -1).size).toBe(0);
    expect(highlights(path, 1).get('gtd')).toEqual({ kind: 'tp-read', key: 0, ppn: undefined, dirty: undefined });
    expect(highlights(path, 3).get('cmt')).toMatchObject({ kind: 'evict', key: 5, dirty: true });
    expect(highlights(path, 3).has('gtd')).toBe(false);
  });

  it('summarises a path by kind', () => {
    expect(pathSummary(path)).toBe('1 miss, 2 translation-page reads, 1 insert, 1 eviction, 1 translation-page write');
    expect(pathSummary([])).toBe('no cache or translation work');
  });
});
