/**
 * Paints the block grid's pages into one ImageData through a 32-bit view (one write per
 * pixel), keeping the last painted state so that the next frame repaints only the blocks
 * that changed and uploads only their bounding box. No buffers are allocated per frame:
 * the image and the copy of the last state live as long as the layout. A grid taller than
 * its box is painted whole into the image but uploaded only within the window of rows
 * the canvas holds (layout.ts, gridWindow).
 */
import type { FrameData } from '../../engine/protocol';
import { cellSeams, type GridLayout, type GridWindow, tileOrigin } from './layout';
import { BACKGROUND, HEAT_PIXELS, HEAT_STEPS, PANEL, ROLE_PIXELS, pixel, rgb } from './palette';

const BG = pixel(rgb(BACKGROUND));
const PANEL_PX = pixel(rgb(PANEL));

/** What one paint did (for the frame-time figures). */
export interface PaintStats {
  /** Blocks repainted. */
  blocks: number;
  /** Whole image repainted. */
  full: boolean;
}

export class GridPainter {
  private readonly img: ImageData;
  private readonly px: Uint32Array;
  private readonly states: Uint8Array;
  private readonly states32: Uint32Array | null;
  private readonly roles: Uint8Array;
  private readonly heats: Uint8Array;
  private painted = false;
  private heatMode = false;
  private heatMax = -1;
  /** The page's number of the frame painted last (FrameData.seq), -1 when unknown. */
  private seq = -1;
  /** Blocks a frame's change list names (set and cleared within one paint). */
  private readonly marked: Uint8Array;
  /** The window the canvas last received whole (a new one, or a resized canvas, needs all of it). */
  private shown: GridWindow | null = null;

  constructor(
    readonly layout: GridLayout,
    readonly blocks: number,
    readonly pagesPerBlock: number,
  ) {
    this.img = new ImageData(layout.width, layout.height);
    this.px = new Uint32Array(this.img.data.buffer);
    this.states = new Uint8Array(blocks * pagesPerBlock);
    // Whole blocks compare as 32-bit words when a block is a multiple of 4 pages.
    this.states32 = pagesPerBlock % 4 === 0 ? new Uint32Array(this.states.buffer) : null;
    this.roles = new Uint8Array(blocks);
    this.heats = new Uint8Array(blocks);
    this.marked = new Uint8Array(blocks);
  }

  /** Forces the next paint to repaint everything (e.g. after drawing over the canvas). */
  invalidate() {
    this.painted = false;
  }

  /**
   * Paints `frame` into `ctx` (role colours, or erase-count heat when `heat`); the canvas
   * holds the rows of `win` (the whole grid by default).
   */
  paint(
    ctx: CanvasRenderingContext2D,
    frame: FrameData,
    heat: boolean,
    win: GridWindow = { top: 0, height: this.layout.height },
  ): PaintStats {
    const { pageStates, blockRoles, eraseCounts } = frame;
    let max = 0;
    if (heat) for (let b = 0; b < this.blocks; b++) if (eraseCounts[b] > max) max = eraseCounts[b];
    const full = !this.painted || heat !== this.heatMode || (heat && max !== this.heatMax);
    this.heatMode = heat;
    this.heatMax = max;
    if (full) this.px.fill(PANEL_PX);

    // Which blocks' pages may differ from what was painted: a frame that came as changes
    // since the frame painted last names them (no need to compare 16.7 MB of pages on the
    // paper's device); the same frame again has none; otherwise compare every block.
    const changes =
      full || frame.seq === undefined
        ? null
        : frame.seq === this.seq
          ? []
          : frame.changes?.since === this.seq
            ? frame.changes.blocks
            : null;
    if (changes) for (const b of changes) this.marked[b] = 1;
    this.seq = frame.seq ?? -1;
    const ppb = this.pagesPerBlock;
    const words = ppb >> 2;
    const next32 = this.states32
      ? new Uint32Array(pageStates.buffer, pageStates.byteOffset, pageStates.length >> 2)
      : null;
    const { cell, across, gap, inset } = this.layout;
    const tileW = across * cell + gap;
    const tileH = this.layout.down * cell + gap;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -1;
    let y1 = -1;
    let count = 0;
    for (let b = 0; b < this.blocks; b++) {
      const h = heat ? Math.round((eraseCounts[b] / Math.max(1, max)) * (HEAT_STEPS - 1)) : 0;
      const samePages = changes ? !this.marked[b] : this.sameBlock(b, pageStates, next32, words);
      if (!full && blockRoles[b] === this.roles[b] && (!heat || h === this.heats[b]) && samePages) continue;
      this.roles[b] = blockRoles[b];
      this.heats[b] = h;
      this.states.set(pageStates.subarray(b * ppb, (b + 1) * ppb), b * ppb);
      this.paintBlock(b, heat ? h : -1);
      count++;
      // A tile with its seam: from one pixel above and left of its origin.
      const [ox, oy] = tileOrigin(this.layout, b);
      x0 = Math.min(x0, ox - inset);
      y0 = Math.min(y0, oy - inset);
      x1 = Math.max(x1, ox + tileW - inset);
      y1 = Math.max(y1, oy + tileH - inset);
    }
    if (changes) for (const b of changes) this.marked[b] = 0;
    this.painted = true;
    const { width, height } = this.img;
    const top = win.top;
    const bottom = Math.min(height, top + win.height);
    const moved = this.shown?.top !== top || this.shown.height !== win.height;
    this.shown = win;
    if (full || moved) ctx.putImageData(this.img, 0, -top, 0, top, width, bottom - top);
    else if (count > 0 && Math.min(y1, bottom) > Math.max(y0, top)) {
      const ya = Math.max(y0, top);
      ctx.putImageData(this.img, 0, -top, x0, ya, Math.min(x1, width) - x0, Math.min(y1, bottom) - ya);
    }
    return { blocks: count, full };
  }

  private sameBlock(b: number, next: Uint8Array, next32: Uint32Array | null, words: number): boolean {
    if (next32 && this.states32) {
      for (let w = b * words, end = w + words; w < end; w++) if (next32[w] !== this.states32[w]) return false;
      return true;
    }
    const ppb = this.pagesPerBlock;
    for (let i = b * ppb, end = i + ppb; i < end; i++) if (next[i] !== this.states[i]) return false;
    return true;
  }

  /** Paints block `b`'s pages; `heatStep` < 0 means role colours. */
  private paintBlock(b: number, heatStep: number) {
    const [ox, oy] = tileOrigin(this.layout, b);
    const { cell, across } = this.layout;
    const w = this.img.width;
    const px = this.px;
    const ppb = this.pagesPerBlock;
    const lut = heatStep >= 0 ? HEAT_PIXELS : ROLE_PIXELS;
    const base = (heatStep >= 0 ? heatStep : this.roles[b]) * 3;
    // Leave a 1-pixel seam between cells when cells are big enough to show it. The tile is
    // grey under its cells, one pixel wider up and left, so free (white) cells stand out.
    const size = cellSeams(cell) ? cell - 1 : cell;
    if (size < cell) {
      // The layout's inset leaves room for the seam above and left of the first tiles.
      const x0 = ox - 1;
      for (let y = oy - 1; y < oy + this.layout.down * cell; y++) px.fill(BG, y * w + x0, y * w + ox + across * cell);
    }
    for (let p = 0; p < ppb; p++) {
      const c = lut[base + this.states[b * ppb + p]] ?? lut[3 + this.states[b * ppb + p]];
      const cx = ox + (p % across) * cell;
      const cy = oy + Math.floor(p / across) * cell;
      if (size === 1) {
        px[cy * w + cx] = c;
        continue;
      }
      // Seams between cells are never painted, so they keep the background.
      for (let y = cy; y < cy + size; y++) px.fill(c, y * w + cx, y * w + cx + size);
    }
  }
}
