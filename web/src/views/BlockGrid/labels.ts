/**
 * Cell labels for small devices: each programmed page shows the logical page it holds,
 * in black or white, whichever reads better on the cell's colour.
 */
import type { FrameData } from '../../engine/protocol';
import { type GridLayout } from './layout';
import { cellRect } from './overlay';
import { PAGE_STATE } from '../../engine/codes';
import { INVALID_PAGE, ROLES, rgb } from './palette';

/** Cells at least this wide (px) get labels. */
export const LABEL_MIN_CELL = 20;

/** Relative luminance (WCAG) of a '#rrggbb' colour. */
function luminance(hex: string): number {
  const lin = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** Text colour with the higher contrast on `bg`. */
export function textOn(bg: string): string {
  const l = luminance(bg);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

const ROLE_TEXT = ROLES.map((r) => textOn(r.color));
const INVALID_TEXT = textOn(INVALID_PAGE);

/** Draws labels over the painted pages (call after every paint; the caller repaints fully). */
export function drawLabels(ctx: CanvasRenderingContext2D, l: GridLayout, ppb: number, frame: FrameData, heat: boolean) {
  const keys = frame.pageKeys;
  if (!keys || l.cell < LABEL_MIN_CELL) return;
  const size = Math.min(12, Math.floor(l.cell * 0.42));
  ctx.font = `${size}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let ppn = 0; ppn < keys.length; ppn++) {
    const state = frame.pageStates[ppn];
    if (state === PAGE_STATE.free || keys[ppn] < 0) continue;
    const [x, y, cell] = cellRect(l, ppn, ppb);
    const role = frame.blockRoles[Math.floor(ppn / ppb)];
    ctx.fillStyle = heat ? (state === PAGE_STATE.invalid ? '#ffffff' : '#000000') : state === PAGE_STATE.invalid ? INVALID_TEXT : (ROLE_TEXT[role] ?? '#ffffff');
    const text = String(keys[ppn]);
    ctx.fillText(text.length > 4 ? `${text.slice(0, 3)}…` : text, x + (cell - 1) / 2, y + (cell - 1) / 2 + 0.5, cell - 3);
  }
}
