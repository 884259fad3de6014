// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { svgGoldenMismatch } from '../test/svgGolden';
import { chartData } from './chartData';
import { barText, drawCompareChart, svgFile } from '../charts/draw';
import type { RunMetrics } from '../engine/metrics';
import { columnsFor, valueAt } from './metrics';

const BOX = { width: 480, height: 260, margin: { top: 10, right: 8, bottom: 58, left: 44 } };

/** A metrics object with the fields the chart reads (numbers chosen to give clean ratios). */
function run(scheme: string, k: number, hit?: number): RunMetrics {
  return {
    scheme,
    trace: { name: 't.csv', requests: 100 },
    flash: {
      page_reads: 100 * k,
      page_writes: 200 * k,
      erases: 10 * k,
      by_purpose: { gc: { page_reads: 5 * k, page_writes: 5 * k, erases: 2 * k } },
    },
    gc: { runs: 4 * k, valid_copies: 50 * k },
    ...(hit == null ? {} : { mapping: { hit_ratio: hit } }),
    response_us: { mean: 100 * k, p50: 80 * k, p99: 400 * k, max: 900 * k },
    service_time_us: { total: 1000 * k, flash: 900 * k, ram: 50 * k, lru: 50 * k, host: 0 },
    waf: 1.5 * k,
  };
}

const RUNS = [run('page', 1), run('dftl', 2, 0.5), run('tpftl', 1.5, 0.8)];
const NAMES = new Map([
  ['page', { name: 'Page', color: '#4e79a7' }],
  ['dftl', { name: 'DFTL', color: '#f28e2c' }],
  ['tpftl', { name: 'TPFTL', color: '#e15759' }],
]);
const pick = (ids: string[]) => columnsFor(RUNS).filter((c) => ids.includes(c.id));

function svg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}

describe('chartData', () => {
  it("gives each scheme's metric value and its ratio to the baseline's, from the metrics objects", () => {
    const cols = pick(['waf', 'flash.erases', 'response_us.p99', 'flash.by_purpose.gc.page_writes']);
    const d = chartData(RUNS, cols, 'page', NAMES);
    expect(d.groups.map((g) => g.id)).toEqual(cols.map((c) => c.id));
    for (const g of d.groups)
      for (const b of g.bars) {
        const m = RUNS.find((r) => r.scheme === b.scheme)!;
        expect(b.value).toBe(valueAt(m, g.id));
        expect(b.ratio).toBeCloseTo(valueAt(m, g.id)! / valueAt(RUNS[0], g.id)!, 12);
      }
    expect(d.groups[0].bars.map((b) => b.ratio)).toEqual([1, 2, 1.5]);
  });

  it('leaves out a metric the baseline lacks (page has no mapping cache)', () => {
    const d = chartData(RUNS, pick(['mapping.hit_ratio', 'waf']), 'page', NAMES);
    expect(d.groups.map((g) => g.id)).toEqual(['waf']);
    // Against dftl, the hit ratio is there for the schemes that have one.
    const e = chartData(RUNS, pick(['mapping.hit_ratio']), 'dftl', NAMES);
    expect(e.groups[0].bars.map((b) => [b.scheme, b.ratio])).toEqual([
      ['dftl', 1],
      ['tpftl', 1.6],
    ]);
  });
});

describe('drawCompareChart', () => {
  const data = chartData(RUNS, pick(['waf', 'flash.erases', 'response_us.mean', 'gc.valid_copies']), 'page', NAMES);

  it('draws bars normalised to the baseline, a labelled ratio axis, units and a legend (golden)', () => {
    const el = svg();
    drawCompareChart(el, data, BOX, () => {});
    expect(svgGoldenMismatch(el, 'compare-chart', import.meta.url)).toBeNull();
    expect(el.querySelector('.axis-label')!.textContent).toBe('Relative to page (ratio, ×)');
    expect([...el.querySelectorAll('.axis.x .tick text')].map((t) => t.textContent)).toContain('Erases (blocks)');
    expect([...el.querySelectorAll('.legend text')].map((t) => t.firstChild!.textContent)).toEqual([
      'page (baseline)',
      'dftl',
      'tpftl',
    ]);
    expect(el.querySelector('.legend title')!.textContent).toBe('Page');
  });

  it("makes bar heights proportional to the ratios, the baseline's reaching the 1× line", () => {
    const el = svg();
    drawCompareChart(el, data, BOX, () => {});
    const bars = [...el.querySelectorAll('rect.bar')];
    expect(bars).toHaveLength(12);
    const h = (i: number) => Number(bars[i].getAttribute('height'));
    expect(h(1) / h(0)).toBeCloseTo(2, 6);
    expect(h(2) / h(0)).toBeCloseTo(1.5, 6);
    expect(Number(bars[0].getAttribute('y'))).toBeCloseTo(Number(el.querySelector('line.unit')!.getAttribute('y1')), 6);
  });

  it("tells a bar's value with its unit on hover and keyboard focus, and redraws without duplicates", () => {
    const el = svg();
    const said: string[] = [];
    drawCompareChart(el, data, BOX, (t) => said.push(t));
    drawCompareChart(el, data, BOX, (t) => said.push(t));
    expect(el.querySelectorAll('rect.bar')).toHaveLength(12);
    const erasesDftl = el.querySelectorAll('rect.bar')[4];
    erasesDftl.dispatchEvent(new FocusEvent('focus'));
    erasesDftl.dispatchEvent(new MouseEvent('mouseleave'));
    expect(said).toEqual(['dftl · Erases: 20 blocks (2× page)', '']);
    expect(erasesDftl.getAttribute('tabindex')).toBe('0');
    expect(barText(data.groups[0], data.groups[0].bars[2], 'page')).toBe('tpftl · WAF: 2.25 (1.5× page)');
  });

  it('exports a standalone SVG document', () => {
    const el = svg();
    drawCompareChart(el, data, BOX, () => {});
    const file = svgFile(el);
    expect(file.startsWith('<?xml')).toBe(true);
    expect(file).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(new DOMParser().parseFromString(file, 'image/svg+xml').querySelectorAll('rect.bar')).toHaveLength(12);
  });
});

describe('columnsFor', () => {
  it('leaves out columns no run has and per-purpose columns that are 0 in every run', () => {
    const ids = columnsFor([run('page', 1)]).map((c) => c.id);
    expect(ids).not.toContain('mapping.hit_ratio');
    expect(ids).not.toContain('buffer.hit_ratio');
    expect(ids).toContain('flash.by_purpose.gc.page_writes');
    expect(columnsFor(RUNS).map((c) => c.id)).toContain('mapping.hit_ratio');
    const zero = run('page', 1);
    zero.flash.by_purpose.gc.erases = 0;
    expect(columnsFor([zero]).map((c) => c.id)).not.toContain('flash.by_purpose.gc.erases');
  });
});
