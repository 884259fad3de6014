/**
 * Paints the block grid into a canvas: pages into one ImageData (fast at any size), then
 * outlines for the open block and the last GC victim.
 */
import type { FrameData } from '../../engine/protocol';
import { type GridLayout, tileOrigin } from './layout';
import { FREE_PAGE, INVALID_PAGE, ROLES, VICTIM_OUTLINE, rgb } from './palette';

const ROLE_RGB = ROLES.map((r) => rgb(r.color));
const FREE_RGB = rgb(FREE_PAGE);
const INVALID_RGB = rgb(INVALID_PAGE);
const BACKGROUND: [number, number, number] = [255, 255, 255];

/** Fills `img` (layout.width x layout.height, device pixels = CSS pixels) with page colours. */
export function paintPages(img: ImageData, l: GridLayout, frame: FrameData, pagesPerBlock: number) {
  const data = img.data;
  const w = img.width;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = BACKGROUND[0];
    data[i + 1] = BACKGROUND[1];
    data[i + 2] = BACKGROUND[2];
    data[i + 3] = 255;
  }
  const blocks = frame.blockRoles.length;
  for (let b = 0; b < blocks; b++) {
    const [ox, oy] = tileOrigin(l, b);
    const role = ROLE_RGB[frame.blockRoles[b]] ?? ROLE_RGB[1];
    for (let p = 0; p < pagesPerBlock; p++) {
      const s = frame.pageStates[b * pagesPerBlock + p];
      const c = s === 0 ? FREE_RGB : s === 1 ? role : INVALID_RGB;
      const x0 = ox + (p % l.across) * l.cell;
      const y0 = oy + Math.floor(p / l.across) * l.cell;
      // Leave a 1-pixel seam between cells when cells are big enough to show it.
      const size = l.cell >= 5 ? l.cell - 1 : l.cell;
      for (let y = y0; y < y0 + size; y++) {
        let o = (y * w + x0) * 4;
        for (let x = 0; x < size; x++, o += 4) {
          data[o] = c[0];
          data[o + 1] = c[1];
          data[o + 2] = c[2];
        }
      }
    }
  }
}

/** Outlines block `b` (open block, GC victim). */
export function outlineBlock(ctx: CanvasRenderingContext2D, l: GridLayout, b: number, color: string, width: number) {
  const [ox, oy] = tileOrigin(l, b);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  const pad = width / 2;
  ctx.strokeRect(ox - pad, oy - pad, l.across * l.cell + width - 1, l.down * l.cell + width - 1);
}

/** Draws the whole grid for `frame`. */
export function drawGrid(
  ctx: CanvasRenderingContext2D,
  l: GridLayout,
  frame: FrameData,
  pagesPerBlock: number,
  victim: number,
) {
  const img = ctx.createImageData(l.width, l.height);
  paintPages(img, l, frame, pagesPerBlock);
  ctx.putImageData(img, 0, 0);
  if (victim >= 0 && l.gap >= 3) outlineBlock(ctx, l, victim, VICTIM_OUTLINE, 2);
}
