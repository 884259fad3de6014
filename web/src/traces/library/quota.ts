/**
 * How much room the browser gives this origin, and why a trace could not be kept. An upload
 * larger than the room is still used for the session; the library just does not keep it.
 */
import { bytes } from '../format';

/**
 * TEST SEAM: when `globalThis.__ftlTestQuotaBytes` is a number, the app believes the origin's
 * quota is that many bytes (usage as the browser reports it). The e2e quota test sets it with
 * an init script, since a real quota cannot be lowered honestly from a test; nothing in the
 * app sets it.
 */
declare global {
  var __ftlTestQuotaBytes: number | undefined;
}

/** Bytes still free for this origin, or undefined when the browser does not say. */
export async function freeBytes(): Promise<number | undefined> {
  const nav = globalThis.navigator as Navigator | undefined;
  let est: StorageEstimate | undefined;
  try {
    est = await nav?.storage?.estimate?.();
  } catch {
    est = undefined;
  }
  const quota = typeof globalThis.__ftlTestQuotaBytes === 'number' ? globalThis.__ftlTestQuotaBytes : est?.quota;
  if (quota == null) return undefined;
  return Math.max(0, quota - (est?.usage ?? 0));
}

/** Whether `e` is the browser's "no more room" error (a DOMException, or wrapped by idb). */
export function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: string } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** The message for a trace of `size` bytes that does not fit in `free` bytes. */
export function quotaMessage(size: number, free?: number): string {
  const room = free == null ? 'the browser refused to store it' : `the browser leaves ${bytes(free)} for this app`;
  return `Not kept in the library: the trace is ${bytes(size)} and ${room} (storage quota). It stays usable until you close or reload the page; delete traces from the library to make room.`;
}
