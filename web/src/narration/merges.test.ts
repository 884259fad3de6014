import { describe, expect, it } from 'vitest';
import type { EngineEvent, RequestTrace } from '../engine/events';
import { describeMerge, mergeWork } from './merges';
import { narrate } from './narrate';
import { FAST_SHARED_RECLAIM as ops } from '../test/events';

const PPB = 4;
const trace: RequestTrace = { index: 4, request: { type: 'request', index: 4, op: 'write', lpn: 9, pages: 1 }, ops };

describe('narration of merges', () => {
  it('counts each merge’s own copies, erases and time', () => {
    expect(mergeWork(ops, 5)).toEqual({ copies: 1, erases: 1, ns: 2_225_000 });
    expect(mergeWork(ops, 11)).toEqual({ copies: 1, erases: 2, ns: 4_225_000 });
  });

  it('tells the reclaim, the merge copies, each merge with its kind, why and work, and the end', () => {
    const lines = narrate(trace, PPB);
    expect(lines.map((l) => [l.first, l.last, l.kind])).toEqual([
      [0, 0, 'merge'],
      [1, 3, 'merge'],
      [4, 4, 'merge'],
      [5, 5, 'merge'],
      [6, 8, 'merge'],
      [9, 9, 'merge'],
      [10, 10, 'merge'],
      [11, 11, 'merge'],
      [12, 12, 'merge'],
    ]);
    expect(lines[0].text).toBe('Reclaim log block 6 (2 valid pages): merge it with the data blocks it holds pages of');
    expect(lines[1].text).toBe('Merge copies LPN 0 from block 0, page 0 to block 7, page 0 — 225 µs');
    expect(lines[3].text).toMatch(
      /^Full merge of logical block 0: log block 6 holds pages of 2 logical blocks \(association degree A = 2\)/,
    );
    expect(lines[3].text).toMatch(/\(merge 1 of A = 2: FAST's Eq\. \(3\)/);
    expect(lines[3].text).toMatch(/— 1 page copy, 1 erase, 2,225 µs$/);
    expect(lines[7].text).toMatch(
      /merge 2 of A = 2.* — 1 page copy, 2 erases, 4,225 µs; the victim's 2 merges together: 2 page copies, 3 erases, 6,450 µs$/,
    );
    expect(lines[3].text).not.toContain('together');
    expect(lines[8].text).toBe('Merge done: log block 6 is erased and free again');
  });

  it('says why an in-order log block was merged in full (BAST with full merges only)', () => {
    const e = {
      type: 'merge',
      kind: 'full',
      lbn: 0,
      data_block: 2,
      log_block: 6,
      result_block: 7,
      cause: 'in_order',
      written: 4,
      degree: 1,
    } as const;
    expect(describeMerge(e, PPB)).toMatch(
      /^Full merge of logical block 0: log block 6 was written in order \(4 of 4 pages written\), but the scheme merges in full only/,
    );
  });

  it('says a switched log block became the data block', () => {
    const sw: EngineEvent[] = [
      { type: 'gc_start', victim: 6, valid: 4 },
      { type: 'erase', block: 2, purpose: 'merge', ns: 2_000_000 },
      {
        type: 'merge',
        kind: 'switch',
        lbn: 3,
        data_block: 2,
        log_block: 6,
        result_block: 6,
        cause: 'in_order',
        written: 4,
        degree: 1,
      },
      { type: 'gc_end', victim: 6 },
    ];
    const lines = narrate({ ...trace, ops: sw }, PPB);
    expect(lines[2].text).toMatch(/^Switch merge .* — 0 page copies, 1 erase, 2,000 µs$/);
    expect(lines[3].text).toBe('Merge done: log block 6 is now the data block of logical block 3');
  });
});
