// The upload preview through SimCore and the real wasm build, as the worker runs it.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SimCore } from '../engine/core';
import type { FromWorker, ToWorker } from '../engine/protocol';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { previewSample, readSample } from './preview';
import type { TraceClient } from '../engine/traceStream';

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

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

describe('upload preview', () => {
  it('reads the first lines of a shipped trace as the engine parses them, with field meanings', async () => {
    const file = new Blob([shippedTrace(TRACE)]);
    const sample = await readSample(file, TRACE, 4096);
    expect(sample.bytes.length).toBe(4096);
    expect(sample.complete).toBe(false);
    const p = await previewSample(client(), sample, {}, 5);
    expect(p.format).toBe('msr');
    expect(p.detected).toBe(true);
    expect(p.time_unit).toBe('filetime');
    expect(p.sector_size).toBeNull();
    expect(p.fields.map((f) => f.name)).toEqual([
      'Timestamp',
      'Hostname',
      'DiskNumber',
      'Type',
      'Offset',
      'Size',
      'ResponseTime',
    ]);
    expect(p.lines).toHaveLength(5);
    // Line 1 as text and as the request the engine makes of it.
    const first = new TextDecoder().decode(sample.bytes).split('\n')[0].trim();
    expect(p.lines[0].text).toBe(first);
    const [, , , type, offset, size] = first.split(',');
    expect(p.lines[0].request).toMatchObject({
      op: type.toLowerCase(),
      offset: Number(offset),
      size: Number(size),
      device: 'hm_0',
    });
  });

  it('decompresses a gzip upload and applies unit overrides', async () => {
    const text = '11413000 0 657728 16 1\n11414000 0 8 8 0\n';
    const sample = await readSample(new Blob([gzipSync(text)]), 't.gz');
    expect(sample).toEqual({ bytes: new TextEncoder().encode(text), complete: true });
    const c = client();
    const plain = await previewSample(c, sample, {});
    expect(plain.format).toBe('mqsim');
    expect(plain.lines[0].request).toMatchObject({ at_ns: 0, offset: 657_728 * 512, size: 16 * 512, op: 'read' });
    const over = await previewSample(c, sample, { timeUnit: 'us', sectorSize: 4096 });
    expect(over).toMatchObject({ time_unit: 'us', default_time_unit: 'ns', sector_size: 4096 });
    expect(over.lines[1].request).toMatchObject({ at_ns: 1_000_000, offset: 8 * 4096, size: 8 * 4096, op: 'write' });
  });

  it('locates a bad line under a chosen format, and says why an unknown one cannot be read', async () => {
    const sample = {
      bytes: new TextEncoder().encode('1,hm,0,Write,0,512,1\n2,hm,0,Sideways,0,512,1\n'),
      complete: true,
    };
    const p = await previewSample(client(), sample, { format: 'msr' });
    expect(p.detected).toBe(false);
    expect(p.lines.map((l) => l.kind)).toEqual(['request', 'error']);
    expect(p.lines[1].error).toMatchObject({ line: 2, column: 8, found: 'Sideways' });
    const unknown = await previewSample(
      client(),
      { bytes: new TextEncoder().encode('<script>x</script>\n'), complete: true },
      {},
    );
    expect(unknown.format).toBeNull();
    expect(unknown.error?.expected).toMatch(/tried/);
    expect(unknown.lines[0]).toMatchObject({ kind: 'unread', text: '<script>x</script>' });
  });
});
