// Native and wasm agree bit for bit: the Rust test core-wasm/engine/tests/golden_hashes.rs
// checks the native engine against this golden file, and this test checks the wasm build.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';

interface Golden {
  trace: string;
  steps: number[];
  cases: { config: { scheme: string }; hashes: string[] }[];
}

const golden: Golden = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../core-wasm/engine/tests/golden/hashes.json', import.meta.url)), 'utf8'),
);

describe('wasm state hashes equal the native golden hashes', () => {
  for (const c of golden.cases) {
    it(`${c.config.scheme} on ${golden.trace}`, () => {
      const wasm = loadWasm();
      const sim = new wasm.Simulation(
        JSON.stringify(c.config),
        new Uint8Array(shippedTrace(golden.trace)),
        golden.trace,
      );
      const got = golden.steps.map((n) => {
        sim.step(n - sim.cursor());
        return sim.stateHash();
      });
      expect(got).toEqual(c.hashes);
      sim.free();
    });
  }

  it('seeking back reproduces the golden hash', () => {
    const wasm = loadWasm();
    const c = golden.cases[0];
    const sim = new wasm.Simulation(JSON.stringify(c.config), new Uint8Array(shippedTrace(golden.trace)), golden.trace);
    sim.step(1000);
    const i = golden.steps.indexOf(100);
    sim.seek(100);
    expect(sim.cursor()).toBe(100);
    expect(sim.stateHash()).toBe(c.hashes[i]);
    sim.free();
  });
});
