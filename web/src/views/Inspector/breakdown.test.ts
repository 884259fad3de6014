import { describe, expect, it } from 'vitest';
import type { RequestReport } from '../../engine/protocol';
import { breakdown } from './breakdown';

const report = (over: Partial<RequestReport>): RequestReport => ({
  index: 1,
  op: 'write',
  lpn: 3,
  pages: 1,
  arrival_us: 0,
  start_us: 0,
  completion_us: 0,
  response_us: 0,
  queue_us: 0,
  flash_us: { data: 0, translation: 0, log: 0, buffer: 0, gc: 0, merge: 0 },
  ram_us: 0,
  lru_us: 0,
  host_us: 0,
  meta_us: 0,
  ...over,
});

describe('response breakdown', () => {
  it('splits a response into its parts and names the unexplained rest as waiting for a chip', () => {
    const r = report({
      response_us: 9591.1,
      queue_us: 100,
      flash_us: { data: 400, translation: 25, log: 0, buffer: 0, gc: 700, merge: 0 },
      ram_us: 1,
      lru_us: 0.5,
    });
    const { parts, total, overlap } = breakdown(r);
    expect(parts.map((p) => [p.key, Math.round(p.us * 10) / 10])).toEqual([
      ['queue', 100],
      ['mapping', 25],
      ['data', 400],
      ['gc', 700],
      ['ram', 1.5],
      ['wait', 8364.6],
    ]);
    expect(total).toBe(9591.1);
    expect(overlap).toBe(0);
  });

  it('shows host transfer and metadata loading (seed 003) as parts of their own when charged', () => {
    const r = report({
      response_us: 300,
      host_us: 13.65,
      meta_us: 225,
      flash_us: { data: 25, translation: 0, log: 0, buffer: 0, gc: 0, merge: 0 },
      ram_us: 0.005,
    });
    const { parts } = breakdown(r);
    expect(parts.map((p) => p.key)).toEqual(['host', 'metadata', 'data', 'ram', 'wait']);
    expect(parts.find((p) => p.key === 'metadata')!.us).toBe(225);
  });

  it('reports overlap when parallel units make the parts exceed the response', () => {
    const { parts, overlap } = breakdown(
      report({ response_us: 300, flash_us: { data: 400, translation: 0, log: 0, buffer: 0, gc: 0, merge: 0 } }),
    );
    expect(parts.map((p) => p.key)).toEqual(['data']);
    expect(overlap).toBe(100);
  });

  it('names the GC part a partial GC step for a scheme with a response bound', () => {
    const r = report({
      response_us: 2325,
      flash_us: { data: 325, translation: 0, log: 0, buffer: 0, gc: 2000, merge: 0 },
    });
    expect(breakdown(r).parts.find((p) => p.key === 'gc')!.label).toBe('GC and merges');
    const gc = breakdown(r, true).parts.find((p) => p.key === 'gc')!;
    expect([gc.label, gc.us]).toEqual(['partial GC step', 2000]);
  });
});
