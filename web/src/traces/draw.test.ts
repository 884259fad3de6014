// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { svgGoldenMismatch } from '../test/svgGolden';
import { drawHeatStrip, drawSizeHistogram } from './draw';

const svg = () => document.createElementNS('http://www.w3.org/2000/svg', 'svg');

/** 4 KiB requests mostly, some 8 KiB and a few 64 KiB, none in between. */
const BUCKETS = [
  { min_bytes: 4096, max_bytes: 8191, count: 700 },
  { min_bytes: 8192, max_bytes: 16383, count: 250 },
  { min_bytes: 16384, max_bytes: 32767, count: 0 },
  { min_bytes: 32768, max_bytes: 65535, count: 0 },
  { min_bytes: 65536, max_bytes: 131071, count: 50 },
];

const HEAT = { first_offset: 0, bucket_bytes: 1 << 20, counts: [0, 5, 40, 10, 0, 0, 2, 1] };

describe('trace charts', () => {
  it('draws one bar per non-empty size bucket, tallest for the commonest size (golden)', () => {
    const el = svg();
    drawSizeHistogram(el, BUCKETS);
    expect(svgGoldenMismatch(el, 'size-histogram', import.meta.url)).toBeNull();
    const heights = [...el.querySelectorAll('rect')].map((r) => Number(r.getAttribute('height')));
    expect(heights).toHaveLength(3);
    expect(heights[0]).toBeGreaterThan(heights[1]);
    expect(heights[1]).toBeGreaterThan(heights[2]);
  });

  it('redraws in place with new data', () => {
    const el = svg();
    drawSizeHistogram(el, BUCKETS);
    drawSizeHistogram(el, BUCKETS.slice(0, 2));
    expect(el.querySelectorAll('g.bucket')).toHaveLength(2);
  });

  it('draws one cell per address bucket, darkest for the hottest (golden)', () => {
    const el = svg();
    drawHeatStrip(el, HEAT);
    expect(svgGoldenMismatch(el, 'heat-strip', import.meta.url)).toBeNull();
    const op = [...el.querySelectorAll('rect')].map((r) => Number(r.getAttribute('fill-opacity')));
    expect(op).toHaveLength(8);
    expect(Math.max(...op)).toBe(op[2]);
    expect(el.querySelectorAll('title')[2].textContent).toBe('2.00 MiB: 40 requests');
  });
});
