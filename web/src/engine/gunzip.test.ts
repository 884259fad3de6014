// A gzip trace streams through DecompressionStream into the
// engine and gives the same parse as the plain file; binary files are refused as binary;
// a format forced on a file it does not fit is parsed with a warning.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SimCore } from './core';
import type { FromWorker, ToWorker } from './protocol';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { streamTrace, type TraceClient } from './traceStream';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

function client(): TraceClient {
  const core = new SimCore(loadWasm());
  let id = 0;
  return {
    async request<T extends FromWorker['type']>(body: Body<ToWorker>) {
      const [reply] = core.handle({ ...body, id: ++id } as ToWorker);
      if (reply.type === 'error') throw new Error(reply.message);
      return reply as Extract<FromWorker, { type: T }>;
    },
  };
}

function source(name: string, bytes: Uint8Array, piece = 4096) {
  return {
    name,
    size: bytes.length,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += piece) c.enqueue(bytes.slice(i, i + piece));
          c.close();
        },
      }),
  };
}

describe('trace files that are not plain text', () => {
  it('decompresses a gzip trace while streaming it, with progress in compressed bytes', async () => {
    const plain = new Uint8Array(shippedTrace('msr-cambridge_hm_0_first1000.csv'));
    const gz = new Uint8Array(gzipSync(plain));
    const seen: number[] = [];
    const a = await streamTrace(client(), source('hm.csv', plain), {}, () => {});
    const b = await streamTrace(client(), source('hm.csv.gz', gz, 1000), {}, (done) => seen.push(done));
    expect(b.format).toBe('msr');
    expect(b.summary).toEqual(a.summary);
    expect(seen.at(-1)).toBe(gz.length);
  });

  it('refuses a PNG and a wasm file as binary, not as empty or unknown', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expect(streamTrace(client(), source('logo.png', png), {}, () => {})).rejects.toThrow(
      /logo\.png:1:1: expected a text trace.*looks binary \(a PNG image/,
    );
    const wasm = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 7, 1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f, 0x0a]);
    await expect(streamTrace(client(), source('app.wasm', wasm), {}, () => {})).rejects.toThrow(
      /looks binary \(a WebAssembly module/,
    );
  });

  it('warns when a forced format does not fit the fields', async () => {
    const disksim = new TextEncoder().encode('0.551706 0 20941264 16 0\n1.25 0 20941280 16 1\n2.5 0 30000 8 1\n');
    const p = await streamTrace(client(), source('d.trace', disksim), { format: 'mqsim' }, () => {});
    expect(p.report.warnings).toEqual([expect.stringMatching(/do not have the fields of mqsim .*look like disksim/)]);
  });
});
