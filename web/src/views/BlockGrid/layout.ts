/**
 * Block-grid geometry: each block is a tile of pages (as square as the page count allows),
 * tiles flow in rows. We pick the largest page cell that fits the whole device in the box;
 * if even one pixel per page does not fit, the grid grows taller and the view scrolls.
 */
export interface GridLayout {
  /** Page cell edge in CSS pixels. */
  cell: number;
  /** Gap between block tiles. */
  gap: number;
  /** Pages across and down inside a tile. */
  across: number;
  down: number;
  /** Tiles per row. */
  perRow: number;
  width: number;
  height: number;
}

/** Pages across a block tile: a divisor of the page count near its square root. */
export function tileShape(pagesPerBlock: number): [number, number] {
  let across = Math.ceil(Math.sqrt(pagesPerBlock));
  while (pagesPerBlock % across !== 0) across++;
  return [across, pagesPerBlock / across];
}

export function gridLayout(blocks: number, pagesPerBlock: number, boxW: number, boxH: number): GridLayout {
  const [across, down] = tileShape(pagesPerBlock);
  for (let cell = 48; cell >= 1; cell--) {
    const gap = cell >= 6 ? 3 : 1;
    const tileW = across * cell + gap;
    const tileH = down * cell + gap;
    const perRow = Math.max(1, Math.floor((boxW + gap) / tileW));
    const rows = Math.ceil(blocks / perRow);
    if (rows * tileH - gap <= boxH || cell === 1) {
      return { cell, gap, across, down, perRow, width: perRow * tileW - gap, height: rows * tileH - gap };
    }
  }
  throw new Error('unreachable');
}

/** Top-left corner of a block's tile. */
export function tileOrigin(l: GridLayout, block: number): [number, number] {
  const col = block % l.perRow;
  const row = Math.floor(block / l.perRow);
  return [col * (l.across * l.cell + l.gap), row * (l.down * l.cell + l.gap)];
}

/** Which block and page lie under a point, if any. */
export function hitTest(l: GridLayout, blocks: number, x: number, y: number): { block: number; page: number } | null {
  const tileW = l.across * l.cell + l.gap;
  const tileH = l.down * l.cell + l.gap;
  const col = Math.floor(x / tileW);
  const row = Math.floor(y / tileH);
  const px = Math.floor((x - col * tileW) / l.cell);
  const py = Math.floor((y - row * tileH) / l.cell);
  const block = row * l.perRow + col;
  if (x < 0 || y < 0 || col >= l.perRow || px >= l.across || py >= l.down || block >= blocks) return null;
  return { block, page: py * l.across + px };
}

/** The rows of the grid a canvas holds: from `top`, `height` pixels (layout coordinates). */
export interface GridWindow {
  top: number;
  height: number;
}

/**
 * The part of a grid taller than its box that the canvases hold: the rows in view, given the
 * box's scroll offset over the grid (`y`) and its height (`viewH`). A grid that fits is held
 * whole. A canvas as tall as the paper's device (20,000 rows) made every frame copy ~85 MB
 * to the compositor (20-25 ms of main-thread time: issue 12's frame budget), so a tall grid
 * keeps its whole image in memory and shows only this window of it.
 */
export function gridWindow(l: GridLayout, y: number, viewH: number): GridWindow {
  const height = Math.ceil(viewH);
  if (!(height > 0) || l.height <= height) return { top: 0, height: l.height };
  return { top: Math.max(0, Math.min(l.height - height, Math.floor(y))), height };
}
