/**
 * The layer above the pages: GC victim outline, the operation just applied, GC and merge
 * copies flying from the source to their destination, the erase flash, the blocks of the
 * merge on screen, the hovered page and its block's log ↔ data association. It
 * is a few shapes, redrawn whole on a second canvas, so animating never repaints pages.
 */
import type { Association } from './association';
import type { GridHighlight } from './highlight';
import { type GridLayout, tileOrigin } from './layout';
import { BLOCK_ROLE } from '../../engine/codes';
import { ASSOCIATION_LINK, MERGE_OUTLINES, OP_MARK, ROLES, VICTIM_OUTLINE } from './palette';

/** Smallest marker drawn around a page (px), so 1-pixel cells stay visible. */
const MIN_MARK = 7;

/** Top-left corner and edge of physical page `ppn`'s cell. */
export function cellRect(l: GridLayout, ppn: number, ppb: number): [number, number, number] {
  const b = Math.floor(ppn / ppb);
  const p = ppn % ppb;
  const [ox, oy] = tileOrigin(l, b);
  return [ox + (p % l.across) * l.cell, oy + Math.floor(p / l.across) * l.cell, l.cell];
}

function tileRect(l: GridLayout, block: number): [number, number, number, number] {
  const [ox, oy] = tileOrigin(l, block);
  return [ox, oy, l.across * l.cell, l.down * l.cell];
}

/** A ring around a cell, at least MIN_MARK wide, black inside white for any background. */
function ring(ctx: CanvasRenderingContext2D, x: number, y: number, size: number) {
  const s = Math.max(size, MIN_MARK);
  const cx = x + size / 2 - s / 2;
  const cy = y + size / 2 - s / 2;
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#ffffff';
  ctx.strokeRect(cx - 1, cy - 1, s + 2, s + 2);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = OP_MARK;
  ctx.strokeRect(cx - 1, cy - 1, s + 2, s + 2);
}

function tileCentre(l: GridLayout, block: number): [number, number] {
  const [x, y, w, h] = tileRect(l, block);
  return [x + w / 2, y + h / 2];
}

/** A tile outline `pad` px outside the tile, dashed when `dash` is given. */
function outline(
  ctx: CanvasRenderingContext2D,
  l: GridLayout,
  block: number,
  color: string,
  pad: number,
  dash: number[] = [],
) {
  const [x, y, w, h] = tileRect(l, block);
  ctx.setLineDash(dash);
  ctx.lineWidth = 2;
  ctx.strokeStyle = color;
  ctx.strokeRect(x - pad, y - pad, w + 2 * pad - 1, h + 2 * pad - 1);
  ctx.setLineDash([]);
}

/** A line between two tiles' centres. */
function link(ctx: CanvasRenderingContext2D, l: GridLayout, a: number, b: number, color: string, dash: number[]) {
  const [ax, ay] = tileCentre(l, a);
  const [bx, by] = tileCentre(l, b);
  ctx.setLineDash(dash);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = color;
  ctx.beginPath();
  ctx.moveTo(ax, ay);
  ctx.lineTo(bx, by);
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * Merges on screen: the data block, the log block and the new data block outlined in their
 * role colours, joined by lines (data → result ← log), so the association is visible.
 */
function drawMerges(ctx: CanvasRenderingContext2D, l: GridLayout, hl: GridHighlight) {
  for (const m of hl.merges) {
    const to = m.result ?? m.log;
    if (m.data !== null) link(ctx, l, m.data, to, MERGE_OUTLINES.data, [5, 3]);
    if (to !== m.log) link(ctx, l, m.log, to, MERGE_OUTLINES.log, [5, 3]);
    if (m.data !== null) outline(ctx, l, m.data, MERGE_OUTLINES.data, 5);
    outline(ctx, l, m.log, MERGE_OUTLINES.log, 5);
    if (m.result !== null && m.result !== m.log) outline(ctx, l, m.result, MERGE_OUTLINES.result, 5);
  }
}

/** The hovered block's log ↔ data association: dotted outlines and lines to its partners. */
function drawAssociation(ctx: CanvasRenderingContext2D, l: GridLayout, a: Association) {
  for (const p of a.partners) {
    link(ctx, l, a.block, p, ASSOCIATION_LINK, [2, 3]);
    outline(ctx, l, p, ASSOCIATION_LINK, 3, [2, 2]);
  }
  if (a.partners.length) outline(ctx, l, a.block, ASSOCIATION_LINK, 3, [2, 2]);
}

const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/**
 * Draws the overlay. `t` is the animation's progress (0 → 1); at 1 the moves have landed
 * (the pages below already show them) and only the outlines remain.
 */
export function drawOverlay(
  ctx: CanvasRenderingContext2D,
  l: GridLayout,
  ppb: number,
  hl: GridHighlight,
  t: number,
  hover: number | null,
  assoc: Association | null = null,
  top = 0,
) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  // The canvas holds the grid's rows from `top` (layout.ts, gridWindow): draw in grid coordinates.
  ctx.setTransform(1, 0, 0, 1, 0, -top);
  drawMerges(ctx, l, hl);
  if (assoc) drawAssociation(ctx, l, assoc);
  if (hl.victim >= 0) {
    const [x, y, w, h] = tileRect(l, hl.victim);
    const pad = hl.victimActive ? 2 : 1.5;
    ctx.setLineDash(hl.victimActive ? [] : [4, 3]);
    ctx.lineWidth = hl.victimActive ? 3 : 2;
    ctx.strokeStyle = VICTIM_OUTLINE;
    ctx.strokeRect(x - pad, y - pad, w + 2 * pad - 1, h + 2 * pad - 1);
    ctx.setLineDash([]);
  }
  if (t < 1) {
    const move = ease(Math.min(1, t / 0.75));
    for (const m of hl.moves) {
      const [fx, fy, size] = cellRect(l, m.from, ppb);
      const [tx, ty] = cellRect(l, m.to, ppb);
      const s = Math.max(size - (size >= 5 ? 1 : 0), 4);
      ctx.globalAlpha = 0.35;
      ctx.strokeStyle = VICTIM_OUTLINE;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(fx + size / 2, fy + size / 2);
      ctx.lineTo(tx + size / 2, ty + size / 2);
      ctx.stroke();
      ctx.globalAlpha = 1;
      const x = fx + (tx - fx) * move;
      const y = fy + (ty - fy) * move;
      ctx.fillStyle = ROLES[BLOCK_ROLE.active].color;
      ctx.fillRect(x, y, s, s);
      ctx.strokeStyle = OP_MARK;
      ctx.strokeRect(x - 0.5, y - 0.5, s + 1, s + 1);
    }
    if (t > 0.7) {
      ctx.fillStyle = `rgba(255,255,255,${(1 - (t - 0.7) / 0.3) * 0.85})`;
      for (const b of hl.erased) {
        const [x, y, w, h] = tileRect(l, b);
        ctx.fillRect(x, y, w, h);
      }
    }
  }
  if (hl.op) {
    if (hl.op.kind === 'erase') {
      const [x, y, w, h] = tileRect(l, hl.op.block);
      ctx.lineWidth = 2;
      ctx.strokeStyle = OP_MARK;
      ctx.strokeRect(x - 4, y - 4, w + 7, h + 7);
    } else {
      const [x, y, size] = cellRect(l, hl.op.ppn, ppb);
      ring(ctx, x, y, size);
    }
  }
  if (hover !== null) {
    const [x, y, size] = cellRect(l, hover, ppb);
    ctx.lineWidth = 1;
    ctx.strokeStyle = OP_MARK;
    ctx.setLineDash([2, 2]);
    ctx.strokeRect(x - 1.5, y - 1.5, Math.max(size, 3) + 2, Math.max(size, 3) + 2);
    ctx.setLineDash([]);
  }
}
