// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { svgGoldenMismatch } from '../test/svgGolden';
import { ramOverTrace, responseCdf, responseOverTrace } from './data';
import { drawLines, linesText, nearest } from './lines';
import { TEST_KEYS, TEST_RUNS } from './testRuns';

const BOX = { width: 600, height: 300, margin: { top: 12, right: 12, bottom: 62, left: 56 } };
const svg = () => document.createElementNS('http://www.w3.org/2000/svg', 'svg');

describe('drawLines', () => {
  it('draws a line per scheme in its colour, unit-labelled axes and a legend with line styles (golden)', () => {
    const el = svg();
    drawLines(el, ramOverTrace(TEST_RUNS, TEST_KEYS), BOX, () => {});
    expect(svgGoldenMismatch(el, 'ram-over-trace', import.meta.url)).toBeNull();
    const lines = [...el.querySelectorAll('path.line')];
    expect(lines.map((l) => [l.getAttribute('stroke'), l.getAttribute('stroke-dasharray')])).toEqual([
      ['#4e79a7', ''],
      ['#f28e2c', ''],
      ['#e15759', ''],
      ['#e15759', '5 3'],
    ]);
    expect(el.querySelector('.axis-label.x')!.textContent).toBe('Requests served (requests)');
    expect(el.querySelector('.axis-label.y')!.textContent).toBe('RAM held (KiB), log scale');
    expect([...el.querySelectorAll('.legend text')].map((t) => t.firstChild!.textContent)).toEqual([
      'page',
      'dftl',
      'aps',
      'mapping',
      'buffer',
    ]);
  });

  it('draws the CDF on a log time axis (golden)', () => {
    const el = svg();
    drawLines(el, responseCdf(TEST_RUNS, TEST_KEYS), BOX, () => {});
    expect(el.querySelector('.axis-label.x')!.textContent).toBe('Response time (µs), log scale');
    expect(svgGoldenMismatch(el, 'response-cdf', import.meta.url)).toBeNull();
  });

  it('reads every line at one x with the arrow keys (Home, End) and on hover', () => {
    const el = svg();
    const said: string[] = [];
    const d = responseOverTrace(TEST_RUNS, TEST_KEYS);
    drawLines(el, d, BOX, (t) => said.push(t));
    const overlay = el.querySelector('rect.overlay')!;
    expect(overlay.getAttribute('tabindex')).toBe('0');
    overlay.dispatchEvent(new FocusEvent('focus'));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    overlay.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
    overlay.dispatchEvent(new FocusEvent('blur'));
    expect(said).toEqual([
      'Requests served 100 requests: page 10 µs (max 40 µs); dftl 20 µs (max 80 µs); aps 15 µs (max 60 µs)',
      'Requests served 200 requests: page 20 µs (max 80 µs); dftl 40 µs (max 160 µs); aps 30 µs (max 120 µs)',
      'Requests served 300 requests: page 30 µs (max 120 µs); dftl 60 µs (max 240 µs); aps 45 µs (max 180 µs)',
      '',
    ]);
    // The pointer: x 300 px in a 56..588 px plot over 100..300 requests lands on 200.
    said.length = 0;
    overlay.dispatchEvent(new MouseEvent('mousemove', { clientX: 56 + (532 * (200 - 100)) / 200 + 3 }));
    expect(said[0]).toMatch(/^Requests served 200 requests: /);
    expect(el.querySelector('.cursor')!.getAttribute('visibility')).toBe('visible');
  });

  it("keeps its arrow, Home and End keys from the page's timeline shortcuts", () => {
    const el = svg();
    document.body.append(el);
    drawLines(el, responseOverTrace(TEST_RUNS, TEST_KEYS), BOX, () => {});
    const reached: string[] = [];
    const onKey = (e: KeyboardEvent) => reached.push(e.key);
    window.addEventListener('keydown', onKey);
    try {
      const overlay = el.querySelector('rect.overlay')!;
      for (const key of ['ArrowRight', 'ArrowLeft', 'Home', 'End', ' '])
        overlay.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    } finally {
      window.removeEventListener('keydown', onKey);
      el.remove();
    }
    expect(reached).toEqual([' ']);
  });

  it('finds the nearest point of a line', () => {
    const l = { scheme: 'x', points: [1, 5, 9].map((x) => ({ x, y: x * 2 })) };
    expect([0, 2.9, 3.1, 8, 100].map((x) => nearest(l, x)!.x)).toEqual([1, 1, 5, 9, 9]);
    expect(nearest({ scheme: 'x', points: [] }, 1)).toBeUndefined();
    expect(
      linesText({ title: '', x: { label: 'X', unit: '' }, y: { label: 'Y', unit: 'µs' }, lines: [l], schemes: [] }, 5),
    ).toBe('X 5: x 10 µs');
  });

  it('on a point scale puts the labels evenly in their order and reads point by point, with no cursor', () => {
    const el = svg();
    const said: string[] = [];
    const data = {
      title: 'Mean against RAM',
      x: { label: 'RAM', unit: '', labels: ['64 KiB', '1 MiB', '2 MiB'] },
      y: { label: 'Mean', unit: 'µs' },
      lines: [{ scheme: 'dftl', points: [0, 2].map((x) => ({ x, y: 10 + x })) }],
      schemes: [{ id: 'dftl', name: 'DFTL', color: '#f28e2c' }],
    };
    drawLines(el, data, BOX, (t) => said.push(t));
    const ticks = [...el.querySelectorAll('.axis.x .tick')];
    expect(ticks.map((t) => t.textContent)).toEqual(['64 KiB', '1 MiB', '2 MiB']);
    const at = ticks.map((t) => Number(/translate\(([\d.]+)/.exec(t.getAttribute('transform')!)![1]));
    expect(at[1] - at[0]).toBeCloseTo(at[2] - at[1], 6);
    expect(el.querySelector('rect.overlay')).toBeNull();
    const dots = [...el.querySelectorAll('circle.point')];
    expect(dots.map((d) => d.getAttribute('aria-label'))).toEqual([
      'dftl · 10 µs at RAM 64 KiB',
      'dftl · 12 µs at RAM 2 MiB',
    ]);
    dots[1].dispatchEvent(new Event('focus'));
    expect(said.at(-1)).toBe('dftl · 12 µs at RAM 2 MiB');
    dots[1].dispatchEvent(new Event('blur'));
    expect(said.at(-1)).toBe('');
  });
});
