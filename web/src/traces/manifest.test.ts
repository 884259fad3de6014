// The manifest tells the truth: every shipped trace is listed, auto-detection finds the
// listed format and request count, and each runs on its suggested device without errors.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadWasm } from '../test/wasmNode';
import { parseManifest } from './manifest';

const dir = fileURLToPath(new URL('../../../public/traces/', import.meta.url));
const manifest = parseManifest(JSON.parse(readFileSync(`${dir}index.json`, 'utf8')));

describe('public/traces/index.json', () => {
  it('lists every shipped trace file', () => {
    const files = [
      ...readdirSync(dir).filter((f) => !/\.(md|json)$/.test(f) && f !== 'teaching'),
      ...readdirSync(`${dir}teaching`)
        .filter((f) => f.endsWith('.csv'))
        .map((f) => `teaching/${f}`),
    ].sort();
    expect(manifest.traces.map((t) => t.file).sort()).toEqual(files);
  });

  for (const t of manifest.traces) {
    it(`${t.file}: detected as ${t.format} with ${t.requests} requests, and runs cleanly`, () => {
      const wasm = loadWasm();
      const loader = new wasm.TraceLoader(t.file, undefined, '{}');
      loader.feed(new Uint8Array(readFileSync(`${dir}${t.file}`)));
      const done = JSON.parse(loader.finish());
      expect(done.format).toBe(t.format);
      expect(done.report.requests).toBe(t.requests);
      const sim = wasm.Simulation.fromLoader(JSON.stringify({ scheme: 'page', ...t.config }), loader);
      sim.step(t.requests);
      const names = wasm.counterNames();
      const counters = sim.frame().counters;
      expect(counters[names.indexOf('requests_done')]).toBe(t.requests);
      expect(counters[names.indexOf('integrity_errors')]).toBe(0);
      sim.free();
    });
  }

  it('rejects a malformed manifest with the entry named', () => {
    expect(() => parseManifest({})).toThrow('expected {"traces"');
    expect(() => parseManifest({ traces: [{ file: 'a', title: 't', kind: 'real', format: 'msr' }] })).toThrow(
      'entry 1 has no description',
    );
  });
});
