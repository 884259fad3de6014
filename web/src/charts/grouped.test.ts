// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { svgGoldenMismatch } from '../test/svgGolden';
import { flashByPurpose, hitRatios, percentiles } from './data';
import { drawPanels, panelBarText, stacksPanels } from './grouped';
import { TEST_KEYS, TEST_RUNS } from './testRuns';

const BOX = { width: 760, height: 300, margin: { top: 12, right: 12, bottom: 62, left: 56 } };
const svg = () => document.createElementNS('http://www.w3.org/2000/svg', 'svg');

describe('drawPanels', () => {
  it('draws one panel per operation, a bar per scheme and purpose, unit-labelled axes and a legend (golden)', () => {
    const el = svg();
    drawPanels(el, flashByPurpose(TEST_RUNS, TEST_KEYS), BOX, () => {});
    expect(svgGoldenMismatch(el, 'flash-by-purpose', import.meta.url)).toBeNull();
    expect([...el.querySelectorAll('.axis-label')].map((t) => t.textContent)).toEqual([
      'Flash reads (pages)',
      'Flash programs (pages)',
      'Erases (blocks)',
    ]);
    expect(el.querySelectorAll('rect.bar')).toHaveLength(15);
    expect([...el.querySelectorAll('.legend text')].map((t) => t.firstChild!.textContent)).toEqual([
      'page',
      'dftl',
      'aps',
    ]);
  });

  it('colours each bar with its scheme and makes heights proportional to the values', () => {
    const el = svg();
    const d = flashByPurpose(TEST_RUNS, TEST_KEYS);
    drawPanels(el, d, BOX, () => {});
    const reads = [...el.querySelectorAll('[data-panel="page_reads"] rect.bar')];
    expect(reads.map((r) => r.getAttribute('fill'))).toEqual([
      '#4e79a7',
      '#f28e2c',
      '#e15759',
      '#4e79a7',
      '#f28e2c',
      '#e15759',
    ]);
    const h = (i: number) => Number(reads[i].getAttribute('height'));
    expect(h(1) / h(0)).toBeCloseTo(2, 6); // dftl's data reads are twice page's
    expect(h(3) / h(0)).toBeCloseTo(10 / 90, 6); // translation vs data reads of page
  });

  it('stacks the panels in a narrow box (the side panel), each with its own band and axes', () => {
    const el = svg();
    const narrow = { ...BOX, width: 380, height: 700 };
    const d = flashByPurpose(TEST_RUNS, TEST_KEYS);
    expect(stacksPanels(3, BOX.width, BOX.margin)).toBe(false);
    expect(stacksPanels(3, narrow.width, narrow.margin)).toBe(true);
    expect(stacksPanels(1, 200, narrow.margin)).toBe(false);
    drawPanels(el, d, narrow, () => {});
    const axes = [...el.querySelectorAll('.panel .axis.x')].map((a) => a.getAttribute('transform'));
    const ys = axes.map((t) => Number(/,([\d.]+)\)/.exec(t!)![1]));
    expect(ys[1] - ys[0]).toBeCloseTo(ys[2] - ys[1], 6);
    expect(ys[2]).toBeLessThan(narrow.height - 16 * 1); // above the legend
    const lefts = [...el.querySelectorAll('.panel .axis.y')].map((a) => a.getAttribute('transform'));
    expect(new Set(lefts).size).toBe(1);
    // Every bar sits inside its own band.
    for (const [i, panel] of [...el.querySelectorAll('.panel')].entries())
      for (const bar of panel.querySelectorAll('rect.bar')) {
        const bottom = Number(bar.getAttribute('y')) + Number(bar.getAttribute('height'));
        expect(bottom).toBeCloseTo(ys[i], 6);
        expect(Number(bar.getAttribute('y'))).toBeGreaterThan(i === 0 ? 0 : ys[i - 1]);
      }
  });

  it('puts a ratio chart on a 0–1 axis, and percentiles on a log axis', () => {
    const el = svg();
    drawPanels(el, hitRatios(TEST_RUNS, TEST_KEYS), BOX, () => {});
    const ticks = [...el.querySelectorAll('.axis.y .tick text')].map((t) => t.textContent);
    expect(ticks.at(-1)).toBe('1');
    drawPanels(el, percentiles(TEST_RUNS, TEST_KEYS), BOX, () => {});
    expect(el.querySelector('.axis-label')!.textContent).toBe('Response time (µs), log scale');
    expect(svgGoldenMismatch(el, 'percentiles', import.meta.url)).toBeNull();
  });

  it("tells a bar's value with its unit on hover and keyboard focus, and redraws without duplicates", () => {
    const el = svg();
    const said: string[] = [];
    const d = flashByPurpose(TEST_RUNS, TEST_KEYS);
    drawPanels(el, d, BOX, (t) => said.push(t));
    drawPanels(el, d, BOX, (t) => said.push(t));
    expect(el.querySelectorAll('rect.bar')).toHaveLength(15);
    const bar = el.querySelector('[data-panel="erases"] rect.bar:nth-child(2)')!;
    bar.dispatchEvent(new FocusEvent('focus'));
    bar.dispatchEvent(new MouseEvent('mouseleave'));
    expect(said).toEqual(['dftl · Erases, gc: 20 blocks', '']);
    expect(bar.getAttribute('tabindex')).toBe('0');
    expect(bar.querySelector('title')!.textContent).toBe('dftl · Erases, gc: 20 blocks');
    const p = d.panels[0];
    expect(
      panelBarText(
        { ...p, label: 'WAF', unit: '' },
        { id: 'waf', label: 'WAF', bars: [] },
        { scheme: 'page', value: 1.23456 },
      ),
    ).toBe('page · WAF: 1.235');
  });
});
