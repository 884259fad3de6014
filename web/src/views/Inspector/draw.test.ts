// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ResponseBins } from '../../engine/responseBins';
import { svgGoldenMismatch } from '../../test/svgGolden';
import { boundLabel, drawResponseChart } from './draw';

const BOX = { width: 420, height: 118, margin: { top: 8, right: 10, bottom: 18, left: 46 } };

/** 4,000 requests, 200 µs each but two GC-blocked ones, folded into 80 bins. */
function data(pos: number) {
  const bins = new ResponseBins(4000, 80);
  const values = new Float32Array(4000).fill(200);
  values[1200] = 3180;
  values[3000] = 1500;
  bins.fold(values);
  return { series: bins.series(), total: 4000, pos };
}

function svg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}

const noop = { jump: () => {}, hover: () => {} };

describe('drawResponseChart', () => {
  it('draws axes, max and mean lines, the position and the spikes (golden)', () => {
    const el = svg();
    drawResponseChart(el, data(2000), BOX, noop);
    expect(svgGoldenMismatch(el, 'response-chart', import.meta.url)).toBeNull();
  });

  it('redraws in place: a second call moves the marker without duplicating elements', () => {
    const el = svg();
    drawResponseChart(el, data(0), BOX, noop);
    drawResponseChart(el, data(4000), BOX, noop);
    expect(el.querySelectorAll('line.now')).toHaveLength(1);
    expect(el.querySelectorAll('path.max')).toHaveLength(1);
    expect(el.querySelector('line.now')!.getAttribute('x1')).toBe(String(BOX.width - BOX.margin.right));
  });

  it('marks the biggest spike first and jumps to its request when clicked', () => {
    const el = svg();
    const jumped: number[] = [];
    const d = data(0);
    drawResponseChart(el, d, BOX, { jump: (b) => jumped.push(d.series.argmax[b]), hover: () => {} });
    const spikes = el.querySelectorAll('circle.spike');
    expect(spikes[0].getAttribute('aria-label')).toContain('request #1200, 3,180 µs');
    spikes[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(jumped).toEqual([1200]);
  });

  it("draws a scheme's bound as a labelled line, raising the axis to it, and removes it when gone", () => {
    const el = svg();
    const d = data(0);
    drawResponseChart(el, { ...d, bound: { us: 4000, label: boundLabel('rftl', 4000) } }, BOX, noop);
    const g = el.querySelector('g.bound')!;
    expect(g.querySelector('text')!.textContent).toBe('RFTL bound L(p) = 4,000 µs');
    expect(g.querySelector('title')!.textContent).toContain('one page');
    // The largest response is 3,180 µs; the bound above it is still on the plot.
    const y = Number(g.querySelector('line')!.getAttribute('y1'));
    expect(y).toBeGreaterThanOrEqual(BOX.margin.top);
    expect(y).toBeLessThan(BOX.height - BOX.margin.bottom);
    expect(el.querySelectorAll('g.bound')).toHaveLength(1);
    drawResponseChart(el, d, BOX, noop);
    expect(el.querySelector('g.bound')).toBeNull();
  });

  it('labels the bound as the thesis does', () => {
    expect(boundLabel('rftl', 2325)).toBe('RFTL bound L(p) = 2,325 µs');
  });
});
