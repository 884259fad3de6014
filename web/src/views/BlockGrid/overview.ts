/**
 * The overview of a device too big for its box (the paper's 262,144 blocks at one pixel a
 * page are some 26,000 px tall): the whole device in a small picture beside the scrolling
 * grid, each pixel a run of consecutive blocks coloured by the mix of their pages (free
 * white, valid in the block's role colour, invalid near-black, weighted by count), with the
 * blocks in view outlined. Clicking it scrolls the grid there.
 */
import type { FrameData } from '../../engine/protocol';
import type { GridLayout, GridWindow } from './layout';
import { FREE_PAGE, INVALID_PAGE, pixel, rgb, ROLES } from './palette';

/** Overview width in pixels (its height is the grid box's). */
export const OVERVIEW_WIDTH = 64;

/** How the overview's pixels map to blocks. */
export interface OverviewMap {
  width: number;
  /** Rows of pixels in use (at most the box's height). */
  height: number;
  /** Blocks per pixel (fractional: pixel p covers blocks floor(p * per) to floor((p + 1) * per) - 1). */
  per: number;
  blocks: number;
}

/** The map of `blocks` onto at most `width` x `maxHeight` pixels, row-major like the grid. */
export function overviewMap(blocks: number, width: number, maxHeight: number): OverviewMap {
  const cells = Math.max(1, Math.min(blocks, width * Math.max(1, maxHeight)));
  return { width, height: Math.ceil(cells / width), per: blocks / cells, blocks };
}

/** The first block of pixel `p`. */
const firstOf = (m: OverviewMap, p: number) => Math.floor(p * m.per);

/** The block under overview pixel (x, y), or null outside the picture. */
export function overviewBlockAt(m: OverviewMap, x: number, y: number): number | null {
  const [px, py] = [Math.floor(x), Math.floor(y)];
  if (px < 0 || py < 0 || px >= m.width || py >= m.height) return null;
  const block = firstOf(m, py * m.width + px);
  return block < m.blocks ? block : null;
}

/** The pixel holding `block`. */
export function overviewPixelOf(m: OverviewMap, block: number): number {
  return Math.min(Math.floor(block / m.per), m.width * m.height - 1);
}

const ROLE_RGB = ROLES.map((r) => rgb(r.color));
const FREE_RGB = rgb(FREE_PAGE);
const INVALID_RGB = rgb(INVALID_PAGE);

/**
 * The overview's pixels (little-endian RGBA words, `m.width * m.height`): each pixel the
 * page-weighted mix of its blocks' free, valid (role colour) and invalid pages.
 */
export function overviewPixels(
  m: OverviewMap,
  frame: Pick<FrameData, 'pageStates' | 'blockRoles'>,
  pagesPerBlock: number,
): Uint32Array {
  const out = new Uint32Array(m.width * m.height);
  const { pageStates, blockRoles } = frame;
  const cells = Math.min(out.length, Math.ceil(m.blocks / m.per));
  for (let p = 0; p < cells; p++) {
    const [b0, b1] = [firstOf(m, p), Math.min(m.blocks, firstOf(m, p + 1))];
    let r = 0;
    let g = 0;
    let bl = 0;
    for (let b = b0; b < b1; b++) {
      let valid = 0;
      let invalid = 0;
      for (let i = b * pagesPerBlock, end = i + pagesPerBlock; i < end; i++) {
        const s = pageStates[i];
        if (s === 1) valid++;
        else if (s === 2) invalid++;
      }
      const free = pagesPerBlock - valid - invalid;
      const role = ROLE_RGB[blockRoles[b]] ?? ROLE_RGB[1];
      r += free * FREE_RGB[0] + valid * role[0] + invalid * INVALID_RGB[0];
      g += free * FREE_RGB[1] + valid * role[1] + invalid * INVALID_RGB[1];
      bl += free * FREE_RGB[2] + valid * role[2] + invalid * INVALID_RGB[2];
    }
    const n = Math.max(1, (b1 - b0) * pagesPerBlock);
    out[p] = pixel([Math.round(r / n), Math.round(g / n), Math.round(bl / n)]);
  }
  return out;
}

/** The blocks whose tiles lie (at least partly) in the grid's window `win`. */
export function blocksInView(l: GridLayout, blocks: number, win: GridWindow): { first: number; last: number } {
  const tileH = l.down * l.cell + l.gap;
  const firstRow = Math.max(0, Math.floor((win.top - l.inset) / tileH));
  const lastRow = Math.max(firstRow, Math.floor((win.top + win.height - 1 - l.inset) / tileH));
  return { first: Math.min(blocks - 1, firstRow * l.perRow), last: Math.min(blocks - 1, (lastRow + 1) * l.perRow - 1) };
}

/** The grid's scroll offset that puts `block`'s row at the top of the box. */
export function scrollTopFor(l: GridLayout, block: number): number {
  const tileH = l.down * l.cell + l.gap;
  return Math.floor(block / l.perRow) * tileH;
}
