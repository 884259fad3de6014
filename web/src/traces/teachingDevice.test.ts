// Every scheme the teaching traces' tiny device refuses runs on the device the refusal
// offers (the teaching preset's), on each of the six teaching traces, in the real engine.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SimCore } from '../engine/core';
import type { Catalog, FromWorker, ToWorker } from '../engine/protocol';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { parseManifest } from './manifest';
import { onTeachingDevice } from './teachingDevice';

const manifest = parseManifest(
  JSON.parse(readFileSync(new URL('../../../public/traces/index.json', import.meta.url), 'utf8')),
);
const teaching = manifest.traces.filter((t) => t.kind === 'teaching');

describe('a teaching trace on the teaching device', () => {
  const core = new SimCore(loadWasm());
  let id = 0;
  type Body = ToWorker extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;
  const ask = (msg: Body): FromWorker => core.handle({ ...msg, id: ++id } as ToWorker)[0];
  const { catalog } = ask({ type: 'catalog' }) as { catalog: Catalog };
  const load = (config: object, file: string) =>
    ask({ type: 'load', configJson: JSON.stringify(config), trace: shippedTrace(file), traceName: file });

  it('is offered for all six, and runs every scheme their own device refuses, DFTL and TreeFTL among them', () => {
    expect(teaching).toHaveLength(6);
    const refusedSomewhere = new Set<string>();
    for (const t of teaching) {
      for (const s of catalog.schemes) {
        const experiment = { traceUrl: `traces/${t.file}`, traceName: t.file, config: { scheme: s.id, ...t.config } };
        if (load(experiment.config, t.file).type !== 'error') continue;
        refusedSomewhere.add(s.id);
        const fix = onTeachingDevice(experiment, manifest.traces, catalog.presets)!;
        expect(fix.config.scheme).toBe(s.id);
        const r = load(fix.config, t.file);
        expect(r.type === 'error' ? r.message : r.type, `${s.id} on ${t.file}`).toBe('loaded');
        expect(ask({ type: 'step', requests: 100, budgetMs: Infinity }).type, `${s.id} on ${t.file}`).toBe('view');
      }
    }
    expect([...refusedSomewhere]).toEqual(expect.arrayContaining(['dftl', 'treeftl']));
  });

  it('is not offered for other traces or uploads', () => {
    const real = manifest.traces.find((t) => t.kind === 'real')!;
    expect(
      onTeachingDevice(
        { traceUrl: '', traceName: real.file, config: { scheme: 'dftl' } },
        manifest.traces,
        catalog.presets,
      ),
    ).toBeUndefined();
    const upload = {
      traceUrl: '',
      traceName: teaching[0].file,
      file: new File([''], teaching[0].file),
      config: { scheme: 'dftl' },
    };
    expect(onTeachingDevice(upload, manifest.traces, catalog.presets)).toBeUndefined();
  });
});
