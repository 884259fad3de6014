import { describe, expect, it } from 'vitest';
import type { SimInfo } from '../../engine/protocol';
import { gridLayout } from './layout';
import { keepLayout } from './useGrid';

describe('the grid keeps its layout object while its values stay the same', () => {
  const info = { blocks: 262_144, pagesPerBlock: 64 } as SimInfo;
  const first = keepLayout(null, info, gridLayout(info.blocks, info.pagesPerBlock, 800, 600));

  it('a box only taller or shorter keeps the painter (smallest cells: the width places the tiles)', () => {
    expect(first.layout.cell).toBe(1);
    const shorter = keepLayout(first, info, gridLayout(info.blocks, info.pagesPerBlock, 800, 560));
    expect(shorter).toBe(first);
  });

  it('a new width, or a new device, gives a new layout', () => {
    expect(keepLayout(first, info, gridLayout(info.blocks, info.pagesPerBlock, 700, 600))).not.toBe(first);
    const other = { ...info } as SimInfo;
    expect(keepLayout(first, other, gridLayout(info.blocks, info.pagesPerBlock, 800, 600)).info).toBe(other);
  });
});
