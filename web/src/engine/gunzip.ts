/**
 * gzip-compressed traces (MSR Cambridge and SNIA ship `.gz`) are decompressed while they
 * stream, with the browser's DecompressionStream, recognised by their first two bytes
 * (RFC 1952) rather than by name. Where DecompressionStream is missing the bytes go to the
 * engine as they are, which refuses them with "compressed with gzip: decompress it first".
 */

/** A byte stream ready for the parser, and how many of the source's bytes were read. */
export interface Opened {
  stream: ReadableStream<Uint8Array>;
  gzip: boolean;
  /** Bytes of the source (compressed, for gzip) read so far: progress against its size. */
  sourceBytes(): number;
}

const isGzip = (b: Uint8Array | undefined) => !!b && b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Opens `source` for parsing, decompressing it when it is gzip. */
export async function openTrace(source: ReadableStream<Uint8Array>, name: string): Promise<Opened> {
  const reader = source.getReader();
  const first = await reader.read();
  let read = first.value?.length ?? 0;
  // The source again, first chunk included, counting what is read.
  const raw = new ReadableStream<Uint8Array>({
    start(c) {
      if (first.value) c.enqueue(first.value);
      if (first.done) c.close();
    },
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) return c.close();
      read += value.length;
      c.enqueue(value);
    },
    cancel: (why) => reader.cancel(why),
  });
  const gzip = isGzip(first.value) && typeof DecompressionStream !== 'undefined';
  if (!gzip) return { stream: raw, gzip: false, sourceBytes: () => read };
  const inflated = raw.pipeThrough(
    new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  // A corrupt or truncated file fails inside the decompressor: say which file and why.
  const out = inflated.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        const { done, value } = await out.read();
        if (done) c.close();
        else c.enqueue(value);
      } catch (e) {
        c.error(new Error(`${name}: cannot decompress this gzip file (${e instanceof Error ? e.message : String(e)})`));
      }
    },
    cancel: (why) => out.cancel(why),
  });
  return { stream, gzip: true, sourceBytes: () => read };
}
