import { describe, expect, it } from 'vitest';
import { gridLayout, gridWindow, hitTest, tileOrigin, tileShape } from './layout';

describe('block grid layout', () => {
  it('shapes tiles as squarely as the page count allows', () => {
    expect(tileShape(16)).toEqual([4, 4]);
    expect(tileShape(64)).toEqual([8, 8]);
    expect(tileShape(32)).toEqual([8, 4]);
    expect(tileShape(256)).toEqual([16, 16]);
    expect(tileShape(6)).toEqual([3, 2]);
  });

  it('picks the largest cell that fits the box', () => {
    const l = gridLayout(64, 16, 900, 600);
    expect(l.width).toBeLessThanOrEqual(900);
    expect(l.height).toBeLessThanOrEqual(600);
    // With one more pixel per cell (gap stays 3 px), 64 tiles of 4x4 cells no longer fit.
    const tile = 4 * (l.cell + 1) + 3;
    const perRow = Math.floor((900 + 3) / tile);
    expect(Math.ceil(64 / perRow) * tile - 3).toBeGreaterThan(600);
  });

  it('falls back to one pixel per page (scrolling) for huge devices', () => {
    const l = gridLayout(8192, 64, 1000, 300);
    expect(l.cell).toBe(1);
    expect(l.width).toBeLessThanOrEqual(1000);
    expect(l.height).toBeGreaterThan(300);
  });

  it('hit-tests pages back to their block and page', () => {
    const l = gridLayout(64, 16, 900, 600);
    for (const [block, page] of [
      [0, 0],
      [5, 7],
      [63, 15],
    ]) {
      const [ox, oy] = tileOrigin(l, block);
      const x = ox + (page % l.across) * l.cell + 1;
      const y = oy + Math.floor(page / l.across) * l.cell + 1;
      expect(hitTest(l, 64, x, y)).toEqual({ block, page });
    }
    expect(hitTest(l, 64, -1, 5)).toBeNull();
    expect(hitTest(l, 64, l.width + 50, 5)).toBeNull();
  });

  it('holds a grid that fits whole, and only the rows in view of a taller one', () => {
    const small = gridLayout(64, 16, 900, 600);
    expect(gridWindow(small, 0, 600)).toEqual({ top: 0, height: small.height });
    // The paper's device: 262,144 blocks of 64 pages at one pixel a page scroll.
    const tall = gridLayout(262_144, 64, 1070, 900);
    expect(tall.cell).toBe(1);
    expect(tall.height).toBeGreaterThan(10_000);
    expect(gridWindow(tall, 0, 900)).toEqual({ top: 0, height: 900 });
    expect(gridWindow(tall, 5000.6, 899.5)).toEqual({ top: 5000, height: 900 });
    // Scrolled past either end (elastic scrolling), the window stays inside the grid.
    expect(gridWindow(tall, -40, 900)).toEqual({ top: 0, height: 900 });
    expect(gridWindow(tall, tall.height, 900)).toEqual({ top: tall.height - 900, height: 900 });
    // Before the box is measured: the whole grid.
    expect(gridWindow(tall, 0, 0)).toEqual({ top: 0, height: tall.height });
  });
});
