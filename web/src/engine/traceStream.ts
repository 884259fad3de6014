/**
 * Streams a trace into the engine worker chunk by chunk: the file is read as a stream, cut
 * into ~1 MiB pieces, and each piece is transferred (not copied) and parsed before the next
 * is read. So a 1 GB upload is never held whole in memory, on either thread, and progress
 * is known all along.
 */
import type { FromWorker, ToWorker, TraceParse } from './protocol';
import { openTrace } from './gunzip';

/** Where trace bytes come from: a File, or a fetched Response. */
export interface TraceSource {
  name: string;
  /** Bytes in total, if known (0 = unknown). */
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

/** Options for the engine's parser (engine ParseOptions; omitted = default). */
export interface ParseChoices {
  /** Format name; undefined = detect. */
  format?: string;
  skipBadLines?: boolean;
  /** Keep only the first N requests. */
  maxRequests?: number;
  /** Keep one device / volume / ASU / LUN (as written in the file). */
  device?: string;
  /** Keep only reads or only writes. */
  only?: 'reads' | 'writes';
  /** Time window in seconds from the first record. */
  fromS?: number;
  untilS?: number;
  /** Multiply inter-arrival times (0.5 = twice as fast). */
  timeScale?: number;
  /** blkparse only: replay queued (Q) instead of dispatched (D, the default) events. */
  blkparseEvent?: 'Q' | 'D';
  /** Unit of the time column (`ps`, `ns`, `us`, `ms`, `s`, `filetime`); undefined = the format's. */
  timeUnit?: string;
  /** Bytes per sector, for formats that address in sectors; undefined = 512. */
  sectorSize?: number;
}

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The part of SimClient this needs (so tests can drive SimCore directly). */
export interface TraceClient {
  request<T extends FromWorker['type']>(
    body: Body<ToWorker>,
    transfer?: Transferable[],
  ): Promise<Extract<FromWorker, { type: T }>>;
}

/** Bytes per message to the worker. */
export const CHUNK_BYTES = 1 << 20;

/** The engine ParseOptions JSON for `choices`. */
export function parseOptionsJson(choices: ParseChoices): string {
  const o: Record<string, unknown> = {};
  if (choices.skipBadLines) o.skip_bad_lines = true;
  if (choices.maxRequests && choices.maxRequests > 0) o.max_requests = Math.floor(choices.maxRequests);
  if (choices.device?.trim()) o.devices = [choices.device.trim()];
  if (choices.only) {
    o.reads = choices.only === 'reads';
    o.writes = choices.only === 'writes';
    o.trims = false;
  }
  const ns = (s: number) => Math.round(s * 1e9);
  if (choices.fromS != null && choices.fromS >= 0) o.start_ns = ns(choices.fromS);
  if (choices.untilS != null && choices.untilS >= 0) o.end_ns = ns(choices.untilS);
  if (choices.timeScale != null && choices.timeScale !== 1) o.time_scale = choices.timeScale;
  if (choices.blkparseEvent === 'Q') o.blkparse_event = 'queue';
  if (choices.timeUnit) o.time_unit = choices.timeUnit;
  if (choices.sectorSize != null && choices.sectorSize !== 512) o.sector_size = Math.floor(choices.sectorSize);
  return JSON.stringify(o);
}

/**
 * Parses `source` in the worker; `onProgress(bytesRead, size)` after each chunk. Resolves
 * with the parse result (format, report, statistics); rejects with the engine's located
 * message on bad input, or with `signal.reason` once `signal` aborts (checked before every
 * chunk, and a read waiting on a slow source is cut short). The worker's loaded simulation
 * is untouched either way: parsing only fills its trace loader.
 */
export async function streamTrace(
  client: TraceClient,
  source: TraceSource,
  choices: ParseChoices,
  onProgress: (bytes: number, size: number) => void,
  signal?: AbortSignal,
): Promise<TraceParse> {
  signal?.throwIfAborted();
  await client.request<'traceFed'>({
    type: 'traceOpen',
    name: source.name,
    format: choices.format,
    optionsJson: parseOptionsJson(choices),
  });
  signal?.throwIfAborted();
  const opened = await openTrace(source.stream(), source.name);
  const reader = opened.stream.getReader();
  // Cancelling the reader ends a pending read() at once (as if the stream had ended).
  const stopReading = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stopReading);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let sent = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const chunk = new Uint8Array(pendingBytes);
    let at = 0;
    for (const p of pending) {
      chunk.set(p, at);
      at += p.length;
    }
    pending = [];
    pendingBytes = 0;
    const r = await client.request<'traceFed'>({ type: 'traceChunk', chunk: chunk.buffer }, [chunk.buffer]);
    sent += at;
    // A gzip file's size is compressed bytes: measure progress in those.
    onProgress(opened.gzip ? opened.sourceBytes() : sent, source.size);
    return r.progress.done;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      pending.push(value);
      pendingBytes += value.length;
      if (pendingBytes >= CHUNK_BYTES && (await flush())) break; // request limit reached
    }
    await flush();
  } finally {
    signal?.removeEventListener('abort', stopReading);
    stopReading();
  }
  signal?.throwIfAborted();
  const r = await client.request<'traceParsed'>({ type: 'traceClose' });
  return r.parse;
}

/** A trace source over an uploaded file. */
export function fileSource(file: File): TraceSource {
  return { name: file.name, size: file.size, stream: () => file.stream() };
}

/** A trace source over a URL (a shipped trace); `signal` aborts the download. */
export async function fetchSource(url: string, name: string, signal?: AbortSignal): Promise<TraceSource> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) throw new Error(`${name}: HTTP ${res.status} ${res.statusText}`);
  const body = res.body;
  return { name, size: Number(res.headers.get('content-length')) || 0, stream: () => body };
}
