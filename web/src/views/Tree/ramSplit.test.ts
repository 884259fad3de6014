// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { drawLines } from '../../charts/lines';
import type { SeriesPoint } from '../../engine/metrics';
import { svgGoldenMismatch } from '../../test/svgGolden';
import { ramSplitSoFar, ramSplitWords } from './ramSplit';

const KEY = { id: 'treeftl', name: 'TreeFTL', color: '#4e79a7' };
const BOX = { width: 420, height: 200, margin: { top: 12, right: 12, bottom: 62, left: 56 } };
const point = (i: number, ram = true): SeriesPoint => ({
  requests_done: 10 * i,
  sim_time_us: 100 * i,
  mean_response_us: 5,
  max_response_us: 9,
  free_blocks: 40 - i,
  ...(ram ? { ram: { mapping_bytes: 2048 * i, buffer_bytes: 1024 * (i % 3) } } : {}),
});
const SERIES = [1, 2, 3, 4].map((i) => point(i));

describe('ramSplitSoFar', () => {
  it('draws mapping and buffer KiB of the windows closed by the position, with the position marked', () => {
    const d = ramSplitSoFar(SERIES, 35, KEY)!;
    expect(d.lines.map((l) => l.style)).toEqual(['mapping', 'buffer']);
    expect(d.lines[0].points).toEqual([10, 20, 30].map((x, i) => ({ x, y: 2 * (i + 1) })));
    expect(d.lines[1].points.map((p) => p.y)).toEqual([1, 2, 0]);
    expect(d.marker).toEqual({ x: 35, label: 'Now: 35 requests served' });
    expect(ramSplitWords(SERIES, 35)).toBe('After 30 requests: mapping 6 KiB, buffer 0 KiB.');
  });

  it('gives no panel before a window closes, or for a scheme without a split', () => {
    expect(ramSplitSoFar(SERIES, 5, KEY)).toBeUndefined();
    expect(ramSplitSoFar([point(1, false), point(2, false)], 20, KEY)).toBeUndefined();
    expect(ramSplitSoFar(undefined, 0, KEY)).toBeUndefined();
    expect(ramSplitWords([], 0)).toBe('No window of the trace has closed yet.');
  });

  it('draws the two lines and the position rule inside the x axis (golden)', () => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    drawLines(el, ramSplitSoFar(SERIES, 45, KEY)!, BOX, () => {});
    expect(svgGoldenMismatch(el, 'ram-split', import.meta.url)).toBeNull();
    expect([...el.querySelectorAll('path.line')].map((l) => l.getAttribute('stroke-dasharray'))).toEqual(['', '5 3']);
    const rule = el.querySelector('.marker line')!;
    // The x axis runs 0..45 over 56..408 px: the position (past the last closed window, 40) is its right end.
    expect(Number(rule.getAttribute('x1'))).toBeCloseTo(408, 5);
    expect(Number(el.querySelector('.lines path')!.getAttribute('d')!.split('L').at(-1)!.split(',')[0])).toBeCloseTo(
      56 + (352 * 40) / 45,
      2,
    );
    expect(el.querySelector('.marker title')!.textContent).toBe('Now: 45 requests served');
  });

  it('hands the x of a click or of Enter at the key cursor to `pick` (the panel seeks there)', () => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const picked: number[] = [];
    drawLines(
      el,
      ramSplitSoFar(SERIES, 45, KEY)!,
      BOX,
      () => {},
      (x) => picked.push(x),
    );
    const overlay = el.querySelector('rect.overlay')!;
    overlay.dispatchEvent(new FocusEvent('focus'));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' }));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    // x 0..45 over 56..408 px: a click at 20 requests' pixel picks the window ending at 20.
    overlay.dispatchEvent(new MouseEvent('click', { clientX: 56 + (352 * 20) / 45 + 2 }));
    expect(picked).toEqual([40, 10, 20]);
  });
});
