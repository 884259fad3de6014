/**
 * The trace library: uploaded traces kept in the browser (IndexedDB, through `idb`) across
 * reloads, keyed by their content hash (../contentHash.ts), each with the statistics its
 * parse found. A trace the browser will not keep (no room, or no IndexedDB) is held in memory
 * for the session instead, and says why.
 *
 * Two object stores: `entries` (small records, read to list the library) and `files` (the
 * bytes as a Blob, read only to run a trace). Both are written in one transaction, so a quota
 * failure leaves nothing half-stored, and deleting removes both, which frees the space.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { TraceParse, TraceSummary } from '../../engine/protocol';
import { contentHash } from '../contentHash';
import type { ParseChoices } from '../../engine/traceStream';
import { freeBytes, isQuotaError, quotaMessage } from './quota';

/** One uploaded trace. */
export interface LibraryEntry {
  /** Content hash (contentHash.ts): the key, and what a shared link names. */
  hash: string;
  /** Name shown (the file's name until renamed). */
  name: string;
  /** Size of the file in bytes (compressed, for a .gz). */
  bytes: number;
  /** Format the engine parsed it as (detected or chosen). */
  format: string;
  /** Statistics of the parse (what TraceStats shows). */
  stats: TraceSummary;
  /** What the parse skipped, filtered or doubted. */
  report?: TraceParse['report'];
  /** Parser options it was committed with (format / unit overrides among them). */
  choices: ParseChoices;
  /** When it was added, ms since the epoch. */
  addedAt: number;
  /** 'library' = kept across reloads; 'session' = in memory until the page closes. */
  stored: 'library' | 'session';
  /** For a 'session' trace: why the library did not keep it. */
  whyNotKept?: string;
}

/** An entry with its bytes, ready to run. */
export interface StoredTrace {
  entry: LibraryEntry;
  file: File;
}

/** What the parse of an upload found, stored beside it. */
export interface TraceFacts {
  format: string;
  stats: TraceSummary;
  report?: TraceParse['report'];
  choices?: ParseChoices;
}

/** The result of putTrace: the entry, and whether the library kept it. */
export interface PutResult {
  entry: LibraryEntry;
  /** True when the same bytes were already there (their entry, name unchanged, is returned). */
  existed: boolean;
}

interface LibrarySchema extends DBSchema {
  entries: { key: string; value: Omit<LibraryEntry, 'stored' | 'whyNotKept'> };
  files: { key: string; value: Blob };
}

/** The IndexedDB database name (one per origin). */
export const LIBRARY_DB = 'ftl-lab-library';
/** Longest name kept (a rename is cut there). */
export const MAX_NAME = 200;

let db: Promise<IDBPDatabase<LibrarySchema>> | undefined;
/** Traces held for this session only, by hash. */
const session = new Map<string, StoredTrace>();

function open(): Promise<IDBPDatabase<LibrarySchema>> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new Error('this browser has no IndexedDB (a private window?)'));
  db ??= openDB<LibrarySchema>(LIBRARY_DB, 1, {
    upgrade(d) {
      d.createObjectStore('entries', { keyPath: 'hash' });
      d.createObjectStore('files');
    },
  }).catch((e: unknown) => {
    db = undefined;
    throw e;
  });
  return db;
}

/** Closes the connection (tests, and before deleting the database). */
export async function closeLibrary(): Promise<void> {
  const d = db;
  db = undefined;
  session.clear();
  if (d) (await d.catch(() => undefined))?.close();
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const cleanName = (name: string) => name.trim().slice(0, MAX_NAME);

/** Every uploaded trace, kept or session-only, newest first. */
export async function listTraces(): Promise<LibraryEntry[]> {
  let kept: LibraryEntry[] = [];
  try {
    kept = (await (await open()).getAll('entries')).map((e) => ({ ...e, stored: 'library' as const }));
  } catch {
    // No IndexedDB: only this session's traces.
  }
  const all = [
    ...kept,
    ...[...session.values()].map((s) => s.entry).filter((e) => !kept.some((k) => k.hash === e.hash)),
  ];
  return all.sort((a, b) => b.addedAt - a.addedAt);
}

/** The trace with content hash `hash` and its bytes, or undefined. */
export async function getTrace(hash: string): Promise<StoredTrace | undefined> {
  const s = session.get(hash);
  if (s) return s;
  try {
    const d = await open();
    const tx = d.transaction(['entries', 'files']);
    const [e, blob] = await Promise.all([tx.objectStore('entries').get(hash), tx.objectStore('files').get(hash)]);
    if (!e || !blob) return undefined;
    return { entry: { ...e, stored: 'library' }, file: new File([blob], e.name) };
  } catch {
    return undefined;
  }
}

/**
 * Adds an upload: keeps it in the library when the browser has room, else holds it for the
 * session with `whyNotKept`. `hash` may be given when already computed.
 */
export async function putTrace(
  src: Blob | Uint8Array,
  name: string,
  facts: TraceFacts,
  hash?: string,
): Promise<PutResult> {
  const blob = src instanceof Blob ? src : new Blob([src as BlobPart]);
  const key = hash ?? (await contentHash(blob));
  const known = await getTrace(key);
  if (known) return { entry: known.entry, existed: true };
  const record = {
    hash: key,
    name: cleanName(name) || 'trace',
    bytes: blob.size,
    format: facts.format,
    stats: facts.stats,
    report: facts.report,
    choices: facts.choices ?? {},
    addedAt: Date.now(),
  };
  const keepForSession = (why: string): PutResult => {
    const entry: LibraryEntry = { ...record, stored: 'session', whyNotKept: why };
    session.set(key, { entry, file: new File([blob], entry.name) });
    return { entry, existed: false };
  };
  const free = await freeBytes();
  // The bytes plus a little for the record; the browser may still refuse (caught below).
  if (free != null && blob.size + 4096 > free) return keepForSession(quotaMessage(blob.size, free));
  try {
    const d = await open();
    const tx = d.transaction(['entries', 'files'], 'readwrite');
    await Promise.all([tx.objectStore('files').put(blob, key), tx.objectStore('entries').put(record), tx.done]);
  } catch (e) {
    if (isQuotaError(e) || isQuotaError((e as { cause?: unknown })?.cause))
      return keepForSession(quotaMessage(blob.size, free));
    return keepForSession(
      `Not kept in the library: ${message(e)}. It stays usable until you close or reload the page.`,
    );
  }
  return { entry: { ...record, stored: 'library' }, existed: false };
}

/** Renames a trace; returns its new entry, or undefined if there is none or the name is empty. */
export async function renameTrace(hash: string, name: string): Promise<LibraryEntry | undefined> {
  const clean = cleanName(name);
  if (!clean) return undefined;
  const s = session.get(hash);
  if (s) {
    const entry = { ...s.entry, name: clean };
    session.set(hash, { entry, file: new File([s.file], clean) });
    return entry;
  }
  const d = await open();
  const tx = d.transaction('entries', 'readwrite');
  const e = await tx.store.get(hash);
  if (!e) return undefined;
  const renamed = { ...e, name: clean };
  await Promise.all([tx.store.put(renamed), tx.done]);
  return { ...renamed, stored: 'library' };
}

/** Removes a trace and its bytes (which frees the space). */
export async function deleteTrace(hash: string): Promise<void> {
  session.delete(hash);
  if (typeof indexedDB === 'undefined') return;
  try {
    const d = await open();
    const tx = d.transaction(['entries', 'files'], 'readwrite');
    await Promise.all([tx.objectStore('entries').delete(hash), tx.objectStore('files').delete(hash), tx.done]);
  } catch (e) {
    throw new Error(`Could not delete the trace: ${message(e)}`);
  }
}
