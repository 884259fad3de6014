// The overview of a device too big for its box: every block in a small picture, coloured
// by its pages, with the blocks in view found from the grid's window.
import { describe, expect, it } from 'vitest';
import { gridLayout, gridWindow } from './layout';
import { blocksInView, overviewBlockAt, overviewMap, overviewPixelOf, overviewPixels, scrollTopFor } from './overview';
import { FREE_PAGE, INVALID_PAGE, pixel, rgb, ROLES } from './palette';

describe('grid overview', () => {
  it("fits the paper's 262,144 blocks in a 64-pixel-wide picture the height of the box", () => {
    const m = overviewMap(262_144, 64, 500);
    expect(m.height).toBeLessThanOrEqual(500);
    expect(m.width * m.height).toBeGreaterThanOrEqual(262_144 / m.per);
    expect(overviewBlockAt(m, 0, 0)).toBe(0);
    const last = overviewBlockAt(m, 63, m.height - 1)!;
    expect(last).toBeGreaterThan(262_144 - m.per - 1);
    expect(overviewPixelOf(m, 262_143)).toBe(m.width * m.height - 1);
    expect(overviewBlockAt(m, 64, 0)).toBeNull();
  });

  it("colours each pixel by the mix of its blocks' pages", () => {
    // 4 blocks of 4 pages, one block a pixel: free, all valid (data), all invalid, half and half.
    const m = overviewMap(4, 4, 10);
    const pageStates = Uint8Array.from([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2]);
    const px = overviewPixels(m, { pageStates, blockRoles: Uint8Array.from([0, 1, 1, 1]) }, 4);
    const data = rgb(ROLES[1].color);
    const black = rgb(INVALID_PAGE);
    expect([...px]).toEqual([
      pixel(rgb(FREE_PAGE)),
      pixel(data),
      pixel(black),
      pixel([0, 1, 2].map((i) => Math.round((data[i] + black[i]) / 2)) as [number, number, number]),
    ]);
  });

  it('names the blocks of the rows in view, and scrolls a block to the top', () => {
    const blocks = 262_144;
    const l = gridLayout(blocks, 64, 800, 400);
    expect(l.height).toBeGreaterThan(10_000); // scrolls: one pixel a page
    const top = scrollTopFor(l, 100_000);
    const view = blocksInView(l, blocks, gridWindow(l, top, 400));
    expect(view.first).toBeLessThanOrEqual(100_000);
    expect(view.first).toBeGreaterThan(100_000 - l.perRow);
    expect(view.last).toBeGreaterThan(view.first);
    expect(view.last).toBeLessThan(blocks);
  });
});
