// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { PointRun } from '../compare/sweep/sweepLab';
import { sweepBreakdown } from '../compare/sweep/chartData';
import { BREAKDOWN_PARTS, breakdownOf, compareBreakdown, drawBreakdown, segmentText } from './breakdown';
import { testRun } from './testRuns';

const BOX = { width: 600, height: 280, margin: { top: 12, right: 12, bottom: 62, left: 56 } };
const svg = () => document.createElementNS('http://www.w3.org/2000/svg', 'svg');

/** A run under metadata model `model` with the four parts (µs) `parts`; `flat` reports no `metadata`. */
function placed(scheme: string, model: string, parts: number[]) {
  const [host_transfer, metadata_loading, ftl_execution, user_data_transfer] = parts;
  return {
    ...testRun(scheme, 1),
    time_breakdown_us: { host_transfer, metadata_loading, ftl_execution, user_data_transfer, metadata_share: 0 },
    ...(model === 'flat' ? {} : { metadata: { model } }),
  };
}

function point(index: number, label: string, parts: number[], model = label): PointRun {
  return {
    key: `t|${index}|bast`,
    trace: 't',
    point: { index, scheme: 'bast', key: 'metadata.model', value: model, label, config: {} },
    status: 'done',
    done: 1,
    total: 1,
    metrics: placed('bast', model, parts),
  };
}

const segments = (el: SVGSVGElement, stack: string) => [...el.querySelectorAll(`rect.segment[data-stack="${stack}"]`)];
const num = (r: Element, a: string) => Number(r.getAttribute(a));

describe('time breakdown chart', () => {
  it('stacks the four parts bottom to top, each segment as tall as its part', () => {
    const data = sweepBreakdown([point(1, 'no_cache', [10, 60, 5, 25]), point(0, 'ideal_sram', [10, 0, 5, 25])], 't', [
      'bast',
    ]);
    expect(data.stacks.map((s) => s.label)).toEqual(['ideal_sram', 'no_cache']);
    const el = svg();
    drawBreakdown(el, data, BOX, () => {});
    const noCache = segments(el, 't|1|bast');
    expect(noCache.map((r) => r.getAttribute('data-part'))).toEqual(BREAKDOWN_PARTS.map((p) => p.field));
    expect(noCache.map((r) => r.getAttribute('fill'))).toEqual(BREAKDOWN_PARTS.map((p) => p.color));
    const h = noCache.map((r) => num(r, 'height'));
    // 10 : 60 : 5 : 25 µs.
    expect(h[1] / h[0]).toBeCloseTo(6, 6);
    expect(h[2] / h[0]).toBeCloseTo(0.5, 6);
    expect(h[3] / h[0]).toBeCloseTo(2.5, 6);
    // Each segment sits on the one below it.
    for (let i = 1; i < 4; i++) expect(num(noCache[i], 'y') + h[i]).toBeCloseTo(num(noCache[i - 1], 'y'), 6);
    // The ideal SRAM's metadata part is empty, its bar 40 of the other's 100 µs.
    const ideal = segments(el, 't|0|bast').map((r) => num(r, 'height'));
    expect(ideal[1]).toBe(0);
    expect(ideal.reduce((a, v) => a + v, 0) / h.reduce((a, v) => a + v, 0)).toBeCloseTo(0.4, 6);
    expect(segmentText(data.stacks[1], 1)).toBe('no_cache · Metadata loading: 60 µs (60.0 %)');
    expect([...el.querySelectorAll('.legend text')].map((t) => t.firstChild!.textContent)).toEqual(
      BREAKDOWN_PARTS.map((p) => p.label),
    );
  });

  it('draws only runs placed by a metadata model', () => {
    const runs = [placed('bast', 'flat', [1, 0, 1, 1]), placed('dftl', 'cache', [1, 2, 3, 4])];
    expect(breakdownOf(runs[0])).toBeNull();
    expect(compareBreakdown(runs).stacks).toEqual([{ id: 'dftl', label: 'dftl', parts: [1, 2, 3, 4] }]);
    expect(sweepBreakdown([point(0, 'flat', [1, 0, 1, 1])], 't', ['bast']).stacks).toEqual([]);
  });
});
