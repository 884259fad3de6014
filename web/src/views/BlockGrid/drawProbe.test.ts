import { describe, expect, it } from 'vitest';
import { gridProbe, MAIN_GRID } from './drawProbe';

describe('gridProbe', () => {
  it('keeps one probe per grid, so a second grid does not overwrite the first', () => {
    gridProbe('left').pagesPerBlock = 64;
    gridProbe('right').pagesPerBlock = 8;
    expect(gridProbe('left').pagesPerBlock).toBe(64);
    expect(gridProbe('right').pagesPerBlock).toBe(8);
    expect(gridProbe()).toBe(gridProbe(MAIN_GRID));
    expect(gridProbe('left')).not.toBe(gridProbe(MAIN_GRID));
  });
});
