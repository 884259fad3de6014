// The streaming TraceLoader in the real wasm build: chunked parsing gives the same
// simulation as whole-file parsing, statistics come with it, and bad input is located.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function feedInChunks(loader: { feed(c: Uint8Array): string }, bytes: Uint8Array, size: number) {
  let last = '';
  for (let i = 0; i < bytes.length; i += size) last = loader.feed(bytes.subarray(i, i + size));
  return JSON.parse(last);
}

describe('TraceLoader (wasm)', () => {
  it('parses in chunks with progress and statistics, and builds the same simulation', () => {
    const wasm = loadWasm();
    const bytes = new Uint8Array(shippedTrace(TRACE));
    const loader = new wasm.TraceLoader(TRACE, undefined, '{}');
    const progress = feedInChunks(loader, bytes, 4099);
    expect(progress.bytes).toBe(bytes.length);
    expect(progress.requests).toBeGreaterThan(990); // the last line may still be buffered
    const done = JSON.parse(loader.finish());
    expect(done.format).toBe('msr');
    expect(done.report.requests).toBe(1000);
    expect(done.summary.requests).toBe(1000);
    expect(done.summary.reads).toBe(508);
    expect(done.summary.writes).toBe(492);
    expect(done.summary.footprint_pages).toBe(1917);

    const config = JSON.stringify({ scheme: 'page' });
    const streamed = wasm.Simulation.fromLoader(config, loader);
    const whole = new wasm.Simulation(config, bytes, TRACE);
    streamed.step(1000);
    whole.step(1000);
    expect(streamed.total()).toBe(1000);
    expect(streamed.stateHash()).toBe(whole.stateHash());
    expect(() => wasm.Simulation.fromLoader(config, loader)).toThrow(); // requests were handed over
    streamed.free();
    whole.free();
  });

  it('names the file, line and column of bad input, or skips bad lines when asked', () => {
    const wasm = loadWasm();
    const text =
      '128166385295514663,hm,0,Write,9056014336,2048,2833\n128166385295514878,hm,0,Wrote,11855351808,512,2617\n';
    const bytes = new TextEncoder().encode(text);
    const strict = new wasm.TraceLoader('up.csv', 'msr', '{}');
    expect(() => {
      strict.feed(bytes);
      strict.finish();
    }).toThrow(/^up\.csv:2:25: expected .*'Wrote'/);

    const lenient = new wasm.TraceLoader('up.csv', 'msr', '{"skip_bad_lines": true}');
    lenient.feed(bytes);
    const done = JSON.parse(lenient.finish());
    expect(done.report.requests).toBe(1);
    expect(done.report.skipped).toBe(1);
    expect(done.report.errors[0].line).toBe(2);
    expect(() => new wasm.TraceLoader('x', undefined, '{"bogus": 1}')).toThrow(/trace options/);
  });
});
