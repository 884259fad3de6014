// CSV and JSON exports against the engine's metrics JSON (the JSON `ftl run --json` prints).
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../test/coreClient';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { toCsv, toJson, type Finished } from './export';
import type { RunMetrics } from '../engine/metrics';
import { columnsFor } from './metrics';
import { RunPool, type RunEvent } from './pool';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

/** A direct run, as `ftl run` makes it. */
function directJson(config: Record<string, unknown>): Record<string, unknown> {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(JSON.stringify(config), new Uint8Array(shippedTrace(TRACE)), TRACE, null);
  while (!sim.done()) sim.step(4096);
  const json = sim.metricsJson();
  sim.free();
  return JSON.parse(json);
}

/** The value at a dotted path, looked up without the app's helpers. */
function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

/** Minimal RFC 4180 reader (fields here hold no line breaks). */
function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map((m) => (m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1])),
    );
}

async function pooled(schemes: string[]): Promise<Finished[]> {
  const bytes = shippedTrace(TRACE);
  const events: RunEvent[] = [];
  const lane = () => {
    const c = new CoreClient();
    return { request: c.request.bind(c), stop: () => c.cancel() };
  };
  await new RunPool(lane, 2).run(
    schemes.map((scheme) => ({ key: scheme, config: { scheme } })),
    {
      name: TRACE,
      choices: {},
      open: async () => ({ name: TRACE, size: bytes.byteLength, stream: () => new Blob([bytes]).stream() }),
    },
    (e) => events.push(e),
  );
  return schemes.map((s) => {
    const e = events.find((x) => x.key === s && x.kind === 'done');
    if (e?.kind !== 'done') throw new Error(`${s} did not finish`);
    return { metrics: e.metrics, json: e.json };
  });
}

describe('comparison export', () => {
  it("a run's CSV row carries the numbers of the metrics JSON of a direct run of the same config", async () => {
    const schemes = ['page', 'dftl'];
    const runs = await pooled(schemes);
    const columns = columnsFor(runs.map((r) => r.metrics));
    const [head, ...rows] = parseCsv(toCsv(runs, columns));
    expect(rows).toHaveLength(2);
    expect(head.length).toBeGreaterThan(20);
    rows.forEach((row, i) => {
      const direct = directJson({ scheme: schemes[i] });
      expect(row[0]).toBe(schemes[i]);
      head.forEach((path, j) => {
        const want = at(direct, path);
        if (typeof want === 'number') expect(Number(row[j]), `${schemes[i]} ${path}`).toBe(want);
        else if (want === undefined) expect(row[j], `${schemes[i]} ${path}`).toBe('');
        else expect(row[j]).toBe(String(want));
      });
    });
    // page has no mapping cache: its mapping hit ratio is empty, dftl's is a number.
    const hit = head.indexOf('mapping.hit_ratio');
    expect([rows[0][hit], Number.isFinite(Number(rows[1][hit]))]).toEqual(['', true]);
  });

  it('the JSON export is {"results": [...]} with each run\'s metrics as the engine gave them', async () => {
    const runs = await pooled(['page', 'dftl']);
    const parsed = JSON.parse(toJson(runs)) as { results: RunMetrics[] };
    expect(parsed.results).toEqual([directJson({ scheme: 'page' }), directJson({ scheme: 'dftl' })]);
  });

  it('quotes a trace name holding a comma or a quote', () => {
    const m = {
      scheme: 'page',
      trace: { name: 'a,"b".csv', requests: 1 },
      flash: { by_purpose: {} },
    } as unknown as RunMetrics;
    const csv = toCsv([{ metrics: m, json: '{}' }], []);
    expect(parseCsv(csv)[1]).toEqual(['page', 'a,"b".csv', '1']);
  });
});
