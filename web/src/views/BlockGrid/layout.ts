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
  /**
   * Margin left and above the first tiles: 1 when cells show seams (each tile's seam runs
   * one pixel above and left of it, which the top row and left column need room for).
   */
  inset: number;
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
    const inset = cellSeams(cell) ? 1 : 0;
    const tileW = across * cell + gap;
    const tileH = down * cell + gap;
    const perRow = Math.max(1, Math.floor((boxW - inset + gap) / tileW));
    const rows = Math.ceil(blocks / perRow);
    if (rows * tileH - gap + inset <= boxH || cell === 1) {
      return {
        cell,
        gap,
        across,
        down,
        perRow,
        inset,
        width: perRow * tileW - gap + inset,
        height: rows * tileH - gap + inset,
      };
    }
  }
  throw new Error('unreachable');
}

/** Whether cells of this size are drawn with a 1-pixel seam between them. */
export function cellSeams(cell: number): boolean {
  return cell >= 5;
}

/** Top-left corner of a block's tile. */
export function tileOrigin(l: GridLayout, block: number): [number, number] {
  const col = block % l.perRow;
  const row = Math.floor(block / l.perRow);
  return [l.inset + col * (l.across * l.cell + l.gap), l.inset + row * (l.down * l.cell + l.gap)];
}

/** Which block and page lie under a point, if any. */
export function hitTest(l: GridLayout, blocks: number, gx: number, gy: number): { block: number; page: number } | null {
  const [x, y] = [gx - l.inset, gy - l.inset];
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
 * to the compositor (20-25 ms of main-thread time: the 50 ms frame budget), so a tall grid
 * keeps its whole image in memory and shows only this window of it.
 */
export function gridWindow(l: GridLayout, y: number, viewH: number): GridWindow {
  const height = Math.ceil(viewH);
  if (!(height > 0) || l.height <= height) return { top: 0, height: l.height };
  return { top: Math.max(0, Math.min(l.height - height, Math.floor(y))), height };
}
