// The settings form built from the real engine schema and specs, and the engine's verdicts.
import { describe, expect, it } from 'vitest';
import { SimCore } from '../../engine/core';
import type { Catalog, FromWorker } from '../../engine/protocol';
import { loadWasm } from '../../test/wasmNode';
import { firstSentence, formFromSchema, optionFields, type Field, type Group } from './schemaForm';

const all = (g: Group): Field[] => [...g.fields, ...g.groups.flatMap(all)];

function ask<T extends FromWorker['type']>(
  core: SimCore,
  msg: Parameters<SimCore['handle']>[0],
): Extract<FromWorker, { type: T }> {
  return core.handle(msg)[0] as Extract<FromWorker, { type: T }>;
}

describe('settings from the engine', () => {
  const core = new SimCore(loadWasm());
  const { catalog } = ask<'catalog'>(core, { type: 'catalog', id: 1 }) as { catalog: Catalog };

  it('offers the device, latencies, RAM, GC and timing fields with units and docs', () => {
    const fields = all(formFromSchema(catalog.configSchema, ['scheme', 'options', 'record_events']));
    const by = (p: string) => fields.find((f) => f.path === p);
    for (const p of [
      'device.blocks',
      'device.over_provisioning',
      'device.utilization',
      'device.channels',
      'device.ways',
      'device.latency.program_ns',
      'ram.bytes',
      'gc.reserve_blocks',
    ]) {
      expect(by(p), p).toBeDefined();
      expect(by(p)!.doc, p).toBeTruthy();
    }
    expect(by('device.latency.program_ns')!.units).toBe('ns');
    expect(by('device.cell')!.choices!.map((c) => c.value)).toEqual(['slc', 'mlc']);
    expect(by('gc.victim')!.kind).toBe('choice');
    const timing = by('timing')!;
    expect(timing.choices!.map((c) => c.value)).toEqual(['trace', 'closed', 'periodic']);
    // The periodic variant carries its period (ns) directly: `{"periodic": 500000}`.
    expect(timing.choices![2].fields!.map((x) => [x.path, x.kind])).toEqual([['timing.periodic', 'integer']]);
    expect(by('gc.victim')!.choices!.map((c) => c.value)).toEqual(['greedy', 'cost-benefit', 'fifo']);
    expect(fields.some((f) => f.path.startsWith('options'))).toBe(false);
  });

  it("renders a scheme's own options from its spec, with no code for the scheme", () => {
    const dftl = catalog.schemes.find((s) => s.id === 'dftl')!;
    const f = optionFields(dftl.option_docs, dftl.default_options);
    expect(f.map((x) => [x.path, x.kind])).toContainEqual(['options.batch_update', 'boolean']);
    expect(dftl.variants.length).toBeGreaterThan(0);
  });

  it('shows the engine refusing a value, naming the field, and accepting a good one', () => {
    const bad = ask<'validated'>(core, {
      type: 'validate',
      id: 2,
      configJson: JSON.stringify({ ...catalog.defaultConfig, device: { blocks: 2 } }),
    });
    expect(bad.result).toMatchObject({ ok: false, field: 'device.blocks' });
    const good = ask<'validated'>(core, {
      type: 'validate',
      id: 3,
      configJson: JSON.stringify({ scheme: 'dftl', options: { batch_update: false } }),
    });
    expect(good.result).toEqual({ ok: true });
    const periodic = ask<'validated'>(core, {
      type: 'validate',
      id: 5,
      configJson: JSON.stringify({ scheme: 'page', timing: { periodic: 500000 } }),
    });
    expect(periodic.result).toEqual({ ok: true });
    const unknown = ask<'validated'>(core, {
      type: 'validate',
      id: 4,
      configJson: JSON.stringify({ scheme: 'dftl', options: { nope: 1 } }),
    });
    expect(unknown.result.ok).toBe(false);
  });

  it('shows every help text as whole sentences, and every label in words', () => {
    const fields = [
      ...all(formFromSchema(catalog.configSchema, ['scheme', 'options', 'record_events'])),
      ...catalog.schemes.flatMap((s) => optionFields(s.option_docs, s.default_options)),
    ];
    for (const f of fields) {
      const help = firstSentence(f.doc);
      if (help) expect(help, f.path).toMatch(/[.?!)]$/);
      expect(f.label, f.path).not.toMatch(/^(Gc|Oob|Ram)\b/);
    }
  });

  it("offers page's GC option as a choice", () => {
    const page = catalog.schemes.find((s) => s.id === 'page')!;
    const gc = optionFields(page.option_docs, page.default_options).find((f) => f.path === 'options.gc')!;
    expect(gc.kind).toBe('choice');
    expect(gc.choices!.map((c) => c.value)).toEqual(['one-victim', 'until-above-reserve']);
  });

  it('lists presets with a device each', () => {
    expect(catalog.presets.length).toBeGreaterThan(0);
    for (const p of catalog.presets) expect(p.device.blocks, p.name).toBeGreaterThan(0);
  });
});
