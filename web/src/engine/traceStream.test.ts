// Streaming a trace through SimCore (the worker's code) with the real wasm build.
import { describe, expect, it } from 'vitest';
import { SimCore } from './core';
import type { FromWorker, ToWorker } from './protocol';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { streamTrace, type TraceClient, parseOptionsJson } from './traceStream';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A client that answers through SimCore in-process, as the worker would. */
function coreClient(core: SimCore): TraceClient & { messages: number } {
  const c = {
    messages: 0,
    async request<T extends FromWorker['type']>(body: Body<ToWorker>) {
      c.messages++;
      const [reply] = core.handle({ ...body, id: c.messages } as ToWorker);
      if (reply.type === 'error') throw new Error(reply.message);
      return reply as Extract<FromWorker, { type: T }>;
    },
  };
  return c;
}

/** A source that yields `bytes` in pieces of `piece` bytes. */
function source(name: string, bytes: Uint8Array, piece: number) {
  return {
    name,
    size: bytes.length,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(ctl) {
          for (let i = 0; i < bytes.length; i += piece) ctl.enqueue(bytes.slice(i, i + piece));
          ctl.close();
        },
      }),
  };
}

describe('streamTrace', () => {
  it('parses a shipped trace in pieces, reports progress, then loads it', async () => {
    const core = new SimCore(loadWasm());
    const client = coreClient(core);
    const bytes = new Uint8Array(shippedTrace('mqsim_wsrch-small_websearch.trace'));
    const seen: number[] = [];
    const parse = await streamTrace(client, source('ws.trace', bytes, 65536), {}, (b) => seen.push(b));
    expect(parse.format).toBe('mqsim');
    expect(parse.summary.requests).toBe(24783);
    expect(parse.summary.reads).toBe(24779);
    expect(seen.at(-1)).toBe(bytes.length);
    expect(seen.length).toBe(Math.ceil(bytes.length / (1 << 20)));
    const [loaded] = core.handle({
      type: 'loadParsed',
      id: 99,
      configJson: '{"scheme":"page"}',
      traceName: 'ws.trace',
    });
    expect(loaded.type === 'loaded' && loaded.info.total).toBe(24783);
  });

  it('stops reading at the request limit and reports a located error on bad input', async () => {
    const core = new SimCore(loadWasm());
    const bytes = new Uint8Array(shippedTrace('msr-cambridge_hm_0_first1000.csv'));
    const parse = await streamTrace(coreClient(core), source('hm.csv', bytes, 1000), { maxRequests: 10 }, () => {});
    expect(parse.summary.requests).toBe(10);
    expect(parse.report.limit_reached).toBe(true);

    const bad = new TextEncoder().encode('op,offset,size\nW,0,4096\nX,4096,4096\n');
    await expect(streamTrace(coreClient(core), source('bad.csv', bad, 7), {}, () => {})).rejects.toThrow(
      /^bad\.csv:3:1: /,
    );
    const lenient = await streamTrace(coreClient(core), source('bad.csv', bad, 7), { skipBadLines: true }, () => {});
    expect(lenient.report.skipped).toBe(1);
    expect(lenient.summary.requests).toBe(1);
    expect(parseOptionsJson({ format: 'csv', skipBadLines: true, maxRequests: 5.7 })).toBe(
      '{"skip_bad_lines":true,"max_requests":5}',
    );
    expect(
      JSON.parse(parseOptionsJson({ device: ' 1125 ', only: 'writes', fromS: 1.5, untilS: 2, timeScale: 0.5 })),
    ).toEqual({
      devices: ['1125'],
      reads: false,
      writes: true,
      trims: false,
      start_ns: 1_500_000_000,
      end_ns: 2_000_000_000,
      time_scale: 0.5,
    });
    // Unit overrides from the upload preview; 512 B sectors are the engine's default already.
    expect(JSON.parse(parseOptionsJson({ timeUnit: 'us', sectorSize: 4096 }))).toEqual({
      time_unit: 'us',
      sector_size: 4096,
    });
    expect(parseOptionsJson({ sectorSize: 512 })).toBe('{}');
  });

  it('applies a device and operation filter in the engine', async () => {
    const core = new SimCore(loadWasm());
    const bytes = new Uint8Array(shippedTrace('tencent-cbs_cloud_storage-sample_50k.csv'));
    const parse = await streamTrace(
      coreClient(core),
      source('t.csv', bytes, 1 << 16),
      { device: '1125', only: 'writes' },
      () => {},
    );
    // Volume 1125 has 1,225 requests in the sample; 333 of them are writes (ftl trace-info --device 1125).
    expect(parse.summary.requests).toBe(333);
    expect(parse.summary.reads).toBe(0);
  });
});
