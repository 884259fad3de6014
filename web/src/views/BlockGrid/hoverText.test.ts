import { describe, expect, it } from 'vitest';
import type { FrameData } from '../../engine/protocol';
import { describeDuty, describePage } from './hoverText';

const frame: FrameData = {
  pageStates: new Uint8Array([1, 2, 0, 0]),
  blockRoles: new Uint8Array([1, 0]),
  validCounts: new Uint32Array([1, 0]),
  eraseCounts: new Uint32Array([3, 0]),
  counters: new Float64Array(),
  hash: '',
};

describe('page description', () => {
  it('names the page, what it holds and its block', () => {
    expect(describePage(frame, 2, 0, { ppn: 0, key: 637, version: 341, kind: 'Data', erases: 3 })).toBe(
      'Block 0, page 0 (PPN 0): valid — LPN 637, version 341 · data block, 1 of 2 valid, erased 3×',
    );
    expect(describePage(frame, 2, 1, { ppn: 1, key: 16, version: 2, kind: 'Translation', erases: 3 })).toContain(
      'invalid — held translation page 16, version 2',
    );
    expect(describePage(frame, 2, 2, null)).toBe('Block 1, page 0 (PPN 2): free · free block, 0 of 2 valid, erased 0×');
  });

  it('never shows contents from an earlier erase generation', () => {
    expect(describePage(frame, 2, 0, { ppn: 0, key: 637, version: 341, kind: 'Data', erases: 2 })).toContain(
      'contents not recorded',
    );
    expect(describePage(frame, 2, 0, undefined)).toContain('— …');
  });
});

describe('block duty', () => {
  it("names the block's role for its logical block and that block's GC state", () => {
    const duty = {
      block: 5,
      lbn: 2,
      role: 'replacement',
      gc: 'collecting the primary into the replacement (Fig 4.5 a): 1 of 3 steps done, next: copy 2 of 2 valid pages left',
    };
    expect(describeDuty(duty, 5)).toBe(
      ' · replacement of logical block 2 · GC: collecting the primary into the replacement (Fig 4.5 a): 1 of 3 steps done, next: copy 2 of 2 valid pages left',
    );
    expect(describeDuty({ block: 7, role: 'buffer block 1 of 2 (page-mapped write buffer)' }, 7)).toBe(
      ' · buffer block 1 of 2 (page-mapped write buffer)',
    );
  });

  it('says when the answer holds part-way through a request', () => {
    expect(describeDuty({ block: 5, lbn: 2, role: 'primary', gc: 'idle: writes go to the primary' }, 5, true)).toBe(
      ' · primary of logical block 2 (once this request is served) · GC: idle: writes go to the primary',
    );
  });

  it('says nothing for a scheme without duties or an answer about another block', () => {
    expect(describeDuty(null, 5)).toBe('');
    expect(describeDuty({ block: 4, lbn: 0, role: 'primary' }, 5)).toBe('');
  });
});
