// An experiment sent through a link builds the same simulation: the same state hash at the
// same position, with the real engine (wasm in Node). And the engine's own validation is
// what judges the settings a link carries.
import { describe, expect, it } from 'vitest';
import { SimCore } from '../engine/core';
import type { Catalog, FromWorker } from '../engine/protocol';
import type { Experiment } from '../store/experiment';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { decodeFragment, encodeFragment } from './codec';
import { configFromShared, experimentKey, shareExperiment } from './experimentLink';
import { parseShared } from './state';

const core = new SimCore(loadWasm());
const { catalog } = core.handle({ type: 'catalog', id: 1 })[0] as Extract<FromWorker, { type: 'catalog' }> & {
  catalog: Catalog;
};
const TRACE = 'msr-cambridge_hm_0_first1000.csv';
const known = {
  schemes: catalog.schemes.map((s) => s.id),
  traces: [TRACE],
  tabs: [],
  presets: catalog.presets.map((p) => p.name),
};

/** The state hash after `n` requests of the shipped trace under `config`. */
function hashAfter(config: object, n: number, trace = TRACE): string {
  const wasm = loadWasm();
  const sim = new wasm.Simulation(JSON.stringify(config), new Uint8Array(shippedTrace(trace)), trace);
  sim.step(n);
  const h = sim.stateHash();
  sim.free();
  return h;
}

/** `experiment` through a whole link and back: the config the recipient's engine gets. */
function throughLink(experiment: Experiment) {
  const shared = shareExperiment(catalog, experiment, { shipped: TRACE }, {});
  const fragment = encodeFragment({ ...shared, at: [400, 0] });
  const { state } = parseShared(decodeFragment(fragment).state, known);
  return { shared, fragment, state, config: configFromShared(catalog, state) };
}

const dftl = catalog.schemes.find((s) => s.id === 'dftl')!;
const cases: [string, Experiment['config']][] = [
  ['the default experiment', { scheme: 'page' }],
  [
    'a settings-panel draft (every default written out)',
    {
      ...(catalog.defaultConfig as object),
      scheme: 'page',
      gc: { ...(catalog.defaultConfig.gc as object), victim: 'cost-benefit' },
    },
  ],
  [
    'dftl with a named variant and a smaller RAM',
    { scheme: 'dftl', ram: { bytes: 2048 }, options: { ...dftl.default_options, ...dftl.variants[0]?.options } },
  ],
  [
    'fast with over-provisioning and utilization changed',
    { scheme: 'fast', device: { over_provisioning: 0.3, utilization: 0.5 } },
  ],
];

describe('an experiment through a link', () => {
  for (const [what, config] of cases) {
    it(`${what}: same state hash at request 400`, () => {
      const { config: restored, fragment } = throughLink({ traceUrl: `traces/${TRACE}`, traceName: TRACE, config });
      expect(fragment.length).toBeLessThan(300);
      expect(hashAfter(restored, 400)).toBe(hashAfter(config, 400));
      // And the restored experiment gives the same link again.
      const again = shareExperiment(
        catalog,
        { traceUrl: '', traceName: TRACE, config: restored },
        { shipped: TRACE },
        {},
      );
      expect(experimentKey(again)).toBe(experimentKey(throughLink({ traceUrl: '', traceName: TRACE, config }).shared));
    });
  }

  it("a teaching trace's own device: same state hash at its end", () => {
    const config = {
      scheme: 'page',
      device: { blocks: 8, pages_per_block: 8 },
      gc: { reserve_blocks: 1 },
      workload: { address_map: 'refuse' },
    };
    const { config: restored, state } = throughLink({ traceUrl: '', traceName: TRACE, config });
    expect(state.config).toEqual({
      device: { blocks: 8, pages_per_block: 8 },
      gc: { reserve_blocks: 1 },
      workload: { address_map: 'refuse' },
    });
    expect(hashAfter(restored, 12, 'teaching/gc.csv')).toBe(hashAfter(config, 12, 'teaching/gc.csv'));
  });

  it('holds only what differs: the default experiment is its scheme and trace', () => {
    expect(throughLink({ traceUrl: '', traceName: TRACE, config: { scheme: 'page' } }).shared).toEqual({
      scheme: 'page',
      trace: { shipped: TRACE },
    });
    const small = throughLink({
      traceUrl: '',
      traceName: TRACE,
      config: { scheme: 'page', device: { blocks: 8, pages_per_block: 8 } },
    }).shared;
    expect(small.config).toEqual({ device: { blocks: 8, pages_per_block: 8 } });
  });

  it("takes a preset as the base when that is shorter, and rebuilds the preset's device and timing", () => {
    const p = catalog.presets.find((x) => x.name === 'thesis-rftl')!;
    expect(p.timing).toEqual({ periodic: 2325000 });
    const config = {
      scheme: 'page',
      device: { ...p.device, blocks: 1024 },
      ram: { bytes: p.ram_bytes },
      timing: p.timing,
    };
    const { state, config: restored } = throughLink({ traceUrl: '', traceName: TRACE, config });
    expect(state.preset).toBe('thesis-rftl');
    expect(state.config).toEqual({ device: { blocks: 1024 } });
    expect(restored.device).toEqual({ ...p.device, blocks: 1024 });
    expect(restored.timing).toEqual({ periodic: 2325000 });
    expect(hashAfter(restored, 300)).toBe(hashAfter(config, 300));
  });

  it("leaves the verdict on a link's values to the engine's validation", () => {
    const check = (config: object) => JSON.parse(loadWasm().validateConfigJson(JSON.stringify(config)));
    const bad = configFromShared(catalog, {
      scheme: 'page',
      trace: { shipped: TRACE },
      config: { device: { blocks: 'many' } },
    });
    expect(check(bad)).toMatchObject({ ok: false, field: 'device.blocks' });
    const unknownKey = configFromShared(catalog, { scheme: 'page', trace: { shipped: TRACE }, config: { bogus: 1 } });
    expect(check(unknownKey)).toMatchObject({ ok: false, field: 'bogus' });
    const badOption = configFromShared(catalog, {
      scheme: 'dftl',
      trace: { shipped: TRACE },
      options: { no_such_option: true },
    });
    expect(check(badOption)).toMatchObject({ ok: false });
    expect(check(configFromShared(catalog, { scheme: 'dftl', trace: { shipped: TRACE } }))).toEqual({ ok: true });
  });
});
