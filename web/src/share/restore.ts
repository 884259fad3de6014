/**
 * From a link to a loadable experiment: decode and check it (codec.ts, state.ts), rebuild the
 * engine config and let the engine's validation judge it, and find its trace: shipped, inside
 * the link (checked against its hash), met earlier this session, in the trace library, or
 * else to be asked of the user (`needsFile`). Loads nothing itself (controller.ts does).
 */
import type { Catalog } from '../engine/protocol';
import type { Experiment } from '../store/experiment';
import { contentHash } from '../traces/contentHash';
import { decodeFragment, ShareError } from './codec';
import { configFromShared } from './experimentLink';
import { parseShared, type Known, type SharedState } from './state';
import { rememberUpload, uploadByHash } from './uploads';

/** What restoring needs from the app. */
export interface RestoreHost {
  catalog(): Promise<Catalog>;
  validate(config: object): Promise<{ ok: true } | { ok: false; field?: string; message: string }>;
  /** Shipped trace files, side tabs and presets the app has (schemes come from the catalog). */
  known(): Promise<Omit<Known, 'schemes' | 'presets'>>;
  /** A trace of the local library by content hash, if there is one. */
  findTrace?(hash: string): Promise<Blob | undefined>;
}

/** A link ready to load, or one waiting for the user to supply its trace file. */
export type Resolved =
  | { kind: 'ready'; state: SharedState; experiment: Experiment; dropped: string[] }
  | {
      kind: 'needsFile';
      state: SharedState;
      config: Experiment['config'];
      upload: { name: string; hash: string; size: number };
      dropped: string[];
    };

/** Decodes, checks and resolves `fragment`; a ShareError says why the link cannot be opened. */
export async function resolveLink(fragment: string, host: RestoreHost): Promise<Resolved> {
  const decoded = decodeFragment(fragment);
  const catalog = await host.catalog();
  const known: Known = {
    ...(await host.known()),
    schemes: catalog.schemes.map((s) => s.id),
    presets: catalog.presets.map((p) => p.name),
  };
  const { state, dropped } = parseShared(decoded.state, known);
  const config = configFromShared(catalog, state);
  const verdict = await host.validate(config);
  if (!verdict.ok)
    throw new ShareError(
      `The engine refuses the link's settings${verdict.field ? ` (${verdict.field})` : ''}: ${verdict.message}.`,
    );

  if ('shipped' in state.trace) {
    const file = state.trace.shipped;
    return { kind: 'ready', state, dropped, experiment: { traceUrl: `traces/${file}`, traceName: file, config } };
  }
  const upload = state.trace.upload;
  if (decoded.trace) {
    const hash = await contentHash(decoded.trace);
    if (hash !== upload.hash)
      throw new ShareError(
        `The trace inside the link is damaged: its content hash is ${hash.slice(0, 12)}…, the link says ${upload.hash.slice(0, 12)}….`,
      );
    const file = new File([decoded.trace as Uint8Array<ArrayBuffer>], upload.name);
    rememberUpload(file, { ...upload, size: file.size, segment: decoded.traceSegment });
    return {
      kind: 'ready',
      state,
      dropped,
      experiment: { traceUrl: '', traceName: upload.name, file, traceHash: hash, config },
    };
  }
  const local = uploadByHash(upload.hash) ?? (await fromLibrary(host, upload));
  // The hash goes with the file: the trace library and the Trace selector know an upload by it.
  if (local)
    return {
      kind: 'ready',
      state,
      dropped,
      experiment: { traceUrl: '', traceName: upload.name, file: local, traceHash: upload.hash, config },
    };
  return { kind: 'needsFile', state, config, upload, dropped };
}

async function fromLibrary(host: RestoreHost, upload: { name: string; hash: string }): Promise<File | undefined> {
  try {
    const blob = await host.findTrace?.(upload.hash);
    if (!blob) return undefined;
    return blob instanceof File ? blob : new File([blob], upload.name);
  } catch {
    return undefined; // no library (private window, storage refused): ask for the file
  }
}

/**
 * Checks a file the user picked for a link against the link's hash; resolves with the file
 * ready to load, or throws a ShareError saying that it is not the link's trace.
 */
export async function checkSuppliedFile(
  file: File,
  upload: { name: string; hash: string; size: number },
): Promise<File> {
  const hash = await contentHash(file);
  if (hash !== upload.hash) {
    throw new ShareError(
      `${file.name} is not the trace of this link: its content hash is ${hash.slice(0, 12)}… (${file.size.toLocaleString('en-US')} bytes), the link's trace ${upload.name} has ${upload.hash.slice(0, 12)}… (${upload.size.toLocaleString('en-US')} bytes). Nothing was run; choose the right file.`,
    );
  }
  rememberUpload(file, { name: file.name, hash, size: file.size });
  return file;
}
