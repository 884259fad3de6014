import { describe, expect, it } from 'vitest';
import type { ResponseSeries } from '../../engine/responseBins';
import { ResponseBins } from '../../engine/responseBins';
import { chartScales, spikes, stepPath } from './chartScales';

const BOX = { width: 420, height: 120, margin: { top: 10, right: 10, bottom: 20, left: 10 } };

function series(values: number[], total = values.length, bins = 800): ResponseSeries {
  const b = new ResponseBins(total, bins);
  b.fold(Float32Array.from(values));
  return b.series();
}

describe('response chart scales', () => {
  it('spans the whole trace on x and zero to a nice maximum on y', () => {
    const s = series([200, 200, 3180, 200], 4000);
    const sc = chartScales(s, 4000, BOX);
    expect(sc.x.domain()).toEqual([0, 4000]);
    expect(sc.x(0)).toBe(10);
    expect(sc.x(4000)).toBe(410);
    expect(sc.y.domain()[0]).toBe(0);
    expect(sc.y.domain()[1]).toBeGreaterThanOrEqual(3180);
    expect(sc.y(0)).toBe(100);
  });

  it('maps clicks back to bins, and bins to their spikes', () => {
    const values = Array.from({ length: 1600 }, (_, i) => (i === 1234 ? 9000 : i === 77 ? 5000 : 200));
    const s = series(values, 1600);
    expect(s.binSize).toBe(2);
    const sc = chartScales(s, 1600, BOX);
    const b = sc.binAt(sc.x(1234) + 0.01);
    expect(b).toBe(617);
    expect(s.argmax[b]).toBe(1234);
    expect(sc.binAt(5)).toBe(-1);
    expect(spikes(s, 2).map((i) => s.argmax[i])).toEqual([1234, 77]);
    // Spikes keep apart: the bins next to the biggest one do not take the second marker.
    const burst = series([100, 900, 950, 800, 100, 100, 100, 700], 8, 8);
    expect(spikes(burst, 2)).toEqual([2, 1]);
    expect(spikes(burst, 2, 3)).toEqual([2, 7]);
  });

  it('draws steps only where bins have data', () => {
    const s = series([100, 300], 4, 4);
    const sc = chartScales(s, 4, BOX);
    const d = stepPath(s, sc);
    expect(d.match(/M/g)).toHaveLength(1);
    expect(d.split('H')).toHaveLength(3);
  });
});
