import { describe, expect, it } from 'vitest';
import type { FrameData } from '../../engine/protocol';
import { describePage } from './hoverText';

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
    expect(describePage(frame, 2, 1, { ppn: 1, key: 16, version: 2, kind: 'Translation', erases: 3 })).toContain('invalid — held translation page 16, version 2');
    expect(describePage(frame, 2, 2, null)).toBe('Block 1, page 0 (PPN 2): free · free block, 0 of 2 valid, erased 0×');
  });

  it('never shows contents from an earlier erase generation', () => {
    expect(describePage(frame, 2, 0, { ppn: 0, key: 637, version: 341, kind: 'Data', erases: 2 })).toContain('contents not recorded');
    expect(describePage(frame, 2, 0, undefined)).toContain('— …');
  });
});
