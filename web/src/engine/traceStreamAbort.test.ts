// Stop (Esc) while a trace streams: the read ends at once, nothing more goes to the worker,
// and the parse is never finished (so the loaded simulation is left as it was).
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../test/coreClient';
import { CHUNK_BYTES, streamTrace } from './traceStream';

/** A source that gives `bytes` of CSV lines at once, then never ends (a slow network). */
function stalling(bytes: number) {
  const line = new TextEncoder().encode('W,0,4096\n');
  const data = new Uint8Array(bytes - (bytes % line.length));
  for (let i = 0; i < data.length; i += line.length) data.set(line, i);
  return {
    name: 'slow.csv',
    size: 0,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(ctl) {
          ctl.enqueue(new TextEncoder().encode('op,offset,size\n'));
          ctl.enqueue(data);
        },
      }),
  };
}

describe('streamTrace with an AbortSignal', () => {
  it('stops after the chunk in flight and never closes the parse', async () => {
    const client = new CoreClient();
    const abort = new AbortController();
    const seen: number[] = [];
    const p = streamTrace(
      client,
      stalling(CHUNK_BYTES + 1000),
      {},
      (b) => {
        seen.push(b);
        abort.abort();
      },
      abort.signal,
    );
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
    expect(client.sent).toEqual(['traceOpen', 'traceChunk']);
  });

  it('ends a read that waits on a stalled source', async () => {
    const client = new CoreClient();
    const abort = new AbortController();
    const p = streamTrace(client, stalling(1000), {}, () => {}, abort.signal);
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(client.sent).toEqual(['traceOpen']);
  });
});
