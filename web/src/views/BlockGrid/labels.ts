/**
 * Cell labels for small devices: each programmed page shows the logical page it holds,
 * in black or white, whichever reads better on the cell's colour.
 */
import type { FrameData } from '../../engine/protocol';
import { type GridLayout } from './layout';
import { cellRect } from './overlay';
import { PAGE_STATE } from '../../engine/codes';
import { contrast, INVALID_PAGE, ROLES } from './palette';

/** Cells at least this wide (px) get labels. */
export const LABEL_MIN_CELL = 20;

/** Text colour with the higher contrast on `bg`. */
export function textOn(bg: string): string {
  return contrast(bg, '#000000') > contrast(bg, '#ffffff') ? '#000000' : '#ffffff';
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
    ctx.fillStyle = heat
      ? state === PAGE_STATE.invalid
        ? '#ffffff'
        : '#000000'
      : state === PAGE_STATE.invalid
        ? INVALID_TEXT
        : (ROLE_TEXT[role] ?? '#ffffff');
    const text = String(keys[ppn]);
    ctx.fillText(
      text.length > 4 ? `${text.slice(0, 3)}…` : text,
      x + (cell - 1) / 2,
      y + (cell - 1) / 2 + 0.5,
      cell - 3,
    );
  }
}
