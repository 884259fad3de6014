import { describe, expect, it } from 'vitest';
import type { EngineEvent, RequestTrace } from '../engine/events';
import { describeEvent, describeRequest, formatNs, narrate } from './narrate';
import { program } from '../test/events';

const PPB = 8;
const trace = (ops: EngineEvent[]): RequestTrace => ({
  index: 7,
  request: { type: 'request', index: 7, op: 'write', lpn: 4113, pages: 1 },
  ops,
});

describe('narration of single events', () => {
  const cases: [EngineEvent, string][] = [
    [{ type: 'request', index: 3, op: 'write', lpn: 43, pages: 2 }, 'write LPN 43–44 (2 pages)'],
    [
      { type: 'flash_read', ppn: 27, block: 3, page: 3, purpose: 'data', key: 637, ns: 25_000 },
      'Read LPN 637 from block 3, page 3 — 25 µs',
    ],
    [
      { type: 'flash_read', ppn: 23, block: 2, page: 7, purpose: 'translation', key: 16, ns: 25_000 },
      'Read translation page 16 from block 2, page 7 — 25 µs',
    ],
    [
      { type: 'oob_read', ppn: 9, block: 1, page: 1, purpose: 'gc', ns: 10_000 },
      'Read the spare area of block 1, page 1 (gc) — 10 µs',
    ],
    [
      program({ ppn: 340, block: 21, page: 4, purpose: 'data', key: 637, version: 341 }),
      'Write LPN 637 (version 341) to block 21, page 4 — 200 µs',
    ],
    [
      program({ ppn: 40, block: 5, page: 0, purpose: 'translation', kind: 'Translation', key: 16, version: 2 }),
      'Write translation page 16 (version 2) to block 5, page 0 — 200 µs',
    ],
    [
      program({ ppn: 41, block: 5, page: 1, purpose: 'log', key: 9, version: 2 }),
      'Write LPN 9 (version 2) to log block 5, page 1 — 200 µs',
    ],
    [{ type: 'invalidate', ppn: 959 }, 'Block 119, page 7 is now invalid (its data was superseded)'],
    [{ type: 'erase', block: 25, purpose: 'gc', ns: 700_000 }, 'Erase block 25 to reclaim it — 700 µs'],
    [{ type: 'erase', block: 4, purpose: 'merge', ns: 2_000_000 }, 'Erase block 4 after the merge — 2,000 µs'],
    [
      { type: 'gc_start', victim: 25, valid: 3 },
      'Garbage collection: free blocks ran short; victim block 25 has 3 valid pages to move',
    ],
    [
      { type: 'gc_start', victim: 2, valid: 1 },
      'Garbage collection: free blocks ran short; victim block 2 has 1 valid page to move',
    ],
    [{ type: 'gc_end', victim: 25 }, 'GC done: block 25 is free again'],
    [{ type: 'cache_hit', level: 'entry', key: 4113 }, 'Mapping cache hit for LPN 4113'],
    [{ type: 'cache_miss', level: 'translation_page', key: 16 }, 'Translation-page cache miss for translation page 16'],
    [{ type: 'cache_insert', level: 'entry', key: 4113 }, 'Load LPN 4113 into the mapping cache'],
    [
      { type: 'cache_evict', level: 'entry', key: 12, dirty: true },
      'Evict LPN 12 from the mapping cache — dirty, so its translation page must be rewritten',
    ],
    [
      { type: 'cache_evict', level: 'block_map', key: 3, dirty: false },
      'Evict logical block 3 from the block-map cache — clean, simply dropped',
    ],
    [
      {
        type: 'merge',
        kind: 'switch',
        lbn: 7,
        data_block: 3,
        log_block: 9,
        result_block: 9,
        cause: 'in_order',
        written: 8,
        degree: 1,
      },
      'Switch merge of logical block 7: log block 9 was written in order and complete (8 of 8 pages written), so it simply becomes the data block; data block 3 is erased',
    ],
    [
      {
        type: 'merge',
        kind: 'partial',
        lbn: 7,
        data_block: null,
        log_block: 9,
        result_block: 9,
        cause: 'in_order',
        written: 3,
        degree: 1,
      },
      'Partial merge of logical block 7: log block 9 was written in order but is incomplete (3 of 8 pages written), so the remaining pages were left empty (no data block) and it becomes the data block',
    ],
    [
      {
        type: 'merge',
        kind: 'full',
        lbn: 7,
        data_block: 3,
        log_block: 9,
        result_block: 12,
        cause: 'out_of_order',
        written: 5,
        degree: 1,
      },
      'Full merge of logical block 7: log block 9 holds its pages out of order (5 of 8 pages written), so it cannot become the data block; every valid page of data block 3 and log block 9 gathered into new block 12',
    ],
    [
      {
        type: 'merge',
        kind: 'full',
        lbn: 2,
        data_block: 3,
        log_block: 9,
        result_block: 12,
        cause: 'shared',
        written: 8,
        degree: 3,
      },
      'Full merge of logical block 2: log block 9 holds pages of 3 logical blocks (association degree A = 3), so each is merged on its own; every valid page of data block 3 and log block 9 gathered into new block 12',
    ],
    [
      {
        type: 'merge',
        kind: 'full',
        lbn: 2,
        data_block: 3,
        log_block: 9,
        result_block: 0xffffffff,
        cause: 'fold',
        written: 8,
        degree: 1,
      },
      'Fold (NFTL) of logical block 2: replacement block 9 (8 of 8 pages written) and its primary data block 3 are folded into a new primary: nothing of them was still valid, so no block holds it now',
    ],
  ];
  it.each(cases)('%j', (e, text) => {
    expect(describeEvent(e, PPB)).toBe(text);
  });

  it('names RAM structures with the scheme’s words and tells unknown events generically', () => {
    expect(describeEvent({ type: 'cache_miss', level: 'entry', key: 5 }, PPB, { entry: 'CMT' })).toBe(
      'CMT miss for LPN 5',
    );
    expect(describeEvent({ type: 'wear_level', block: 3 } as unknown as EngineEvent, PPB)).toBe(
      'wear level {"block":3}',
    );
    expect(describeRequest({ type: 'request', index: 0, op: 'read', lpn: 9, pages: 1 })).toBe('read LPN 9');
  });

  it('tells a real-time scheme’s collection as partial steps within its bound, not as a shortage of free blocks', () => {
    const text = describeEvent({ type: 'gc_start', victim: 16, valid: 14 }, PPB, { partialGc: true });
    expect(text).toBe(
      'Garbage collection begins, in partial steps that keep each request within the bound: victim block 16 has 14 valid pages to move',
    );
  });

  it('formats costs in µs, and ms when long', () => {
    expect(formatNs(25_000)).toBe('25 µs');
    expect(formatNs(2_500)).toBe('2.5 µs');
    expect(formatNs(12_345_000)).toBe('12.3 ms');
  });
});

describe('narration of a request', () => {
  it('tells a miss and its translation read as one line with the read’s cost', () => {
    const lines = narrate(
      trace([
        { type: 'cache_miss', level: 'entry', key: 4113 },
        { type: 'flash_read', ppn: 31, block: 3, page: 7, purpose: 'translation', key: 16, ns: 25_000 },
        { type: 'cache_insert', level: 'entry', key: 4113 },
      ]),
      PPB,
      { entry: 'CMT' },
    );
    expect(lines[0]).toEqual({
      first: 0,
      last: 1,
      kind: 'mapping',
      text: 'CMT miss for LPN 4113: read translation page 16 from block 3, page 7 — 25 µs',
      ns: 25_000,
    });
    expect(lines[1]).toMatchObject({ first: 2, last: 2, text: 'Load LPN 4113 into the CMT' });
  });

  it('tells a GC copy as one line and a write with the copy it supersedes as one line', () => {
    const lines = narrate(
      trace([
        { type: 'gc_start', victim: 2, valid: 1 },
        { type: 'flash_read', ppn: 17, block: 2, page: 1, purpose: 'gc', key: 9, ns: 25_000 },
        program({ ppn: 40, block: 5, page: 0, purpose: 'gc', key: 9, version: 3 }),
        { type: 'invalidate', ppn: 17 },
        { type: 'erase', block: 2, purpose: 'gc', ns: 700_000 },
        { type: 'gc_end', victim: 2 },
        program({ ppn: 41, block: 5, page: 1, purpose: 'data', key: 4113, version: 8 }),
        { type: 'invalidate', ppn: 3 },
      ]),
      PPB,
    );
    expect(lines.map((l) => [l.first, l.last, l.kind])).toEqual([
      [0, 0, 'gc'],
      [1, 3, 'gc'],
      [4, 4, 'gc'],
      [5, 5, 'gc'],
      [6, 7, 'data'],
    ]);
    expect(lines[1].text).toBe('GC copies LPN 9 from block 2, page 1 to block 5, page 0 — 225 µs');
    expect(lines[1].ns).toBe(225_000);
    expect(lines[4].text).toBe(
      'Write LPN 4113 (version 8) to block 5, page 1; the old copy at block 0, page 3 is now invalid — 200 µs',
    );
  });
});
