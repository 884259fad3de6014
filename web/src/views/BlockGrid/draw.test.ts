// The grid painter: repainting only the blocks a frame's change list names must give the
// image that comparing every block gives, and a tall grid uploads only its window's rows.
import { describe, expect, it } from 'vitest';
import type { FrameData } from '../../engine/protocol';
import { GridPainter } from './draw';
import { gridLayout, hitTest, tileOrigin } from './layout';
import { BACKGROUND, rgb } from './palette';

// Node has no ImageData: the painter only needs its size and pixel buffer.
class FakeImageData {
  readonly data: Uint8ClampedArray;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }
}
(globalThis as { ImageData?: unknown }).ImageData ??= FakeImageData;

type Put = [FakeImageData, number, number, number?, number?, number?, number?];

/** A 2D context that records its uploads. */
function fakeCtx(height: number) {
  const puts: Put[] = [];
  const ctx = {
    canvas: { height },
    putImageData: (...a: Put) => void puts.push(a),
  } as unknown as CanvasRenderingContext2D;
  return { ctx, puts };
}

/** The same pixels (a plain loop: toEqual over 360,000 bytes takes seconds). */
const samePixels = (p: FakeImageData, q: FakeImageData) =>
  p.data.length === q.data.length && p.data.every((v, i) => v === q.data[i]);

const BLOCKS = 48;
const PPB = 16;

function frame(pageStates: Uint8Array, roles: Uint8Array, extra: Partial<FrameData> = {}): FrameData {
  return {
    pageStates,
    blockRoles: roles,
    validCounts: new Uint32Array(BLOCKS),
    eraseCounts: new Uint32Array(BLOCKS),
    counters: new Float64Array(0),
    hash: '',
    ...extra,
  };
}

describe('grid painter', () => {
  it('paints the same image from change lists as from comparing every block', () => {
    const layout = gridLayout(BLOCKS, PPB, 300, 300);
    const byCompare = new GridPainter(layout, BLOCKS, PPB);
    const byChanges = new GridPainter(layout, BLOCKS, PPB);
    const a = fakeCtx(layout.height);
    const b = fakeCtx(layout.height);
    // One page-state array updated in place, as the page's FrameReceiver does.
    const states = new Uint8Array(BLOCKS * PPB);
    const roles = new Uint8Array(BLOCKS);
    let x = 99;
    const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
    byCompare.paint(a.ctx, frame(states.slice(), roles.slice()), false);
    byChanges.paint(b.ctx, frame(states, roles, { seq: 0 }), false);
    for (let seq = 1; seq <= 30; seq++) {
      const changed = new Set<number>();
      for (let k = rnd(5); k > 0; k--) {
        const p = rnd(states.length);
        states[p] = 1 + rnd(2);
        changed.add(Math.floor(p / PPB));
      }
      if (seq % 7 === 0) roles[rnd(BLOCKS)] = 1 + rnd(3); // a role change alone repaints its block too
      byCompare.paint(a.ctx, frame(states.slice(), roles.slice()), false);
      const blocks = Uint32Array.from([...changed].sort((p, q) => p - q));
      byChanges.paint(b.ctx, frame(states, roles, { seq, changes: { since: seq - 1, blocks } }), false);
      expect(samePixels(b.puts.at(-1)![0], a.puts.at(-1)![0])).toBe(true);
    }
    // The change list is used, not a comparison of every block: a block it leaves out keeps
    // its old pixels.
    states.fill(states[5 * PPB] === 1 ? 2 : 1, 5 * PPB, 6 * PPB);
    byCompare.paint(a.ctx, frame(states.slice(), roles.slice()), false);
    byChanges.paint(
      b.ctx,
      frame(states, roles, { seq: 31, changes: { since: 30, blocks: new Uint32Array(0) } }),
      false,
    );
    expect(samePixels(b.puts.at(-1)![0], a.puts.at(-1)![0])).toBe(false);
    // A frame with changes against a frame this painter did not paint: it compares every block.
    states.fill(2, 0, PPB);
    byCompare.paint(a.ctx, frame(states.slice(), roles.slice()), false);
    byChanges.paint(
      b.ctx,
      frame(states, roles, { seq: 40, changes: { since: 39, blocks: new Uint32Array(0) } }),
      false,
    );
    expect(samePixels(b.puts.at(-1)![0], a.puts.at(-1)![0])).toBe(true);
  });

  it('uploads a tall grid only within the window of rows the canvas holds', () => {
    const blocks = 4096;
    const layout = gridLayout(blocks, PPB, 100, 100);
    expect(layout.height).toBeGreaterThan(400);
    const painter = new GridPainter(layout, blocks, PPB);
    const win = { top: 200, height: 100 };
    const { ctx, puts } = fakeCtx(win.height);
    const states = new Uint8Array(blocks * PPB);
    painter.paint(ctx, frame(states, new Uint8Array(blocks)), false, win);
    // The first paint uploads the whole window, shifted up to the canvas's top.
    expect(puts.at(-1)!.slice(1)).toEqual([0, -200, 0, 200, layout.width, 100]);
    // A page changed below the window: repainted in the image, nothing uploaded.
    states[(blocks - 1) * PPB] = 1;
    painter.paint(ctx, frame(states, new Uint8Array(blocks)), false, win);
    expect(puts.length).toBe(1);
    // Scrolled: the new window goes up whole.
    painter.paint(ctx, frame(states, new Uint8Array(blocks)), false, { top: 250, height: 100 });
    expect(puts.at(-1)!.slice(1)).toEqual([0, -250, 0, 250, layout.width, 100]);
  });

  it('draws the seam around every tile of an empty device, the top row and left column too', () => {
    const layout = gridLayout(BLOCKS, PPB, 300, 300);
    expect(layout.cell).toBeGreaterThanOrEqual(5); // cells large enough to show seams
    const painter = new GridPainter(layout, BLOCKS, PPB);
    const { ctx, puts } = fakeCtx(layout.height);
    painter.paint(ctx, frame(new Uint8Array(BLOCKS * PPB), new Uint8Array(BLOCKS)), false);
    const img = puts.at(-1)![0];
    const at = (x: number, y: number) =>
      [...img.data.slice((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)].join(',');
    const seam = rgb(BACKGROUND).join(',');
    const [ox, oy] = tileOrigin(layout, 0);
    const tile = layout.across * layout.cell;
    // Above the first tile and left of it: the seam, as between any two cells.
    for (let x = ox; x < ox + tile; x++) expect(at(x, oy - 1), `above, x ${x}`).toBe(seam);
    for (let y = oy; y < oy + layout.down * layout.cell; y++) expect(at(ox - 1, y), `left, y ${y}`).toBe(seam);
    // Inside: a free (white) cell, and the seam after it.
    expect(at(ox, oy)).not.toBe(seam);
    expect(at(ox + layout.cell - 1, oy)).toBe(seam);
    // The hit test agrees with where the tiles are drawn.
    expect(hitTest(layout, BLOCKS, ox, oy)).toEqual({ block: 0, page: 0 });
    expect(hitTest(layout, BLOCKS, ox - 1, oy)).toBeNull();
  });
});
