/**
 * The bytes of a shared link: `#ftl<version>.<state>[.<trace>]` in the URL's hash fragment
 * (never sent to a server). `<state>` is the experiment's JSON, DEFLATE-compressed (fflate)
 * and base64url-encoded; `<trace>`, when present, is an uploaded trace small enough to travel
 * with the link, compressed the same way. The trace is its own segment so that moving the
 * timeline (which rewrites the state on every pause) never recompresses it.
 *
 * Everything here treats the fragment as hostile: sizes are bounded before and after
 * inflating (a small link must not expand into gigabytes), and every failure is a
 * ShareError whose message says what is wrong with the link in words a user can act on.
 */
import { deflateSync, Inflate } from 'fflate';

/** The format this build writes and reads. */
export const SHARE_VERSION = 1;
/** The fragment's prefix before the version number. */
export const SHARE_PREFIX = 'ftl';
/** Uploaded traces up to this many compressed bytes travel inside the link (~64 KB). */
export const EMBED_MAX_BYTES = 64 * 1024;
/** Longest fragment read at all (the embedded trace's base64 plus the state, with margin). */
export const MAX_FRAGMENT_CHARS = 256 * 1024;
/** Largest inflated state JSON, and largest inflated embedded trace. */
export const MAX_STATE_BYTES = 256 * 1024;
export const MAX_TRACE_BYTES = 16 * 1024 * 1024;

/** Something wrong with a link; `message` is shown to the user as it is. */
export class ShareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareError';
  }
}

/** A link's parts, decoded but not yet checked for meaning (see state.ts). */
export interface Decoded {
  /** The parsed state JSON (any shape: it came from a URL). */
  state: unknown;
  /** The embedded trace's bytes, if the link carries one. */
  trace?: Uint8Array;
  /** ...and its segment as it stands in the link (written back unchanged). */
  traceSegment?: string;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/** base64url (RFC 4648 §5) without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url text; a ShareError names `what` when it is not base64url. */
export function fromBase64Url(text: string, what: string): Uint8Array {
  if (!B64URL.test(text) || text.length % 4 === 1)
    throw new ShareError(`The link's ${what} is damaged (not base64url text); was it cut short or edited?`);
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new ShareError(`The link's ${what} is damaged (not base64url text); was it cut short or edited?`);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** DEFLATE at the highest level (links are written rarely and read once). */
export function compress(bytes: Uint8Array): Uint8Array {
  return deflateSync(bytes, { level: 9 });
}

/**
 * Inflates `data`, refusing output beyond `limit` bytes (fed in small pieces, so a hostile
 * stream is stopped after at most one piece's expansion) and a stream that ends early.
 */
export function decompress(data: Uint8Array, limit: number, what: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const inflate = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total <= limit) parts.push(chunk);
    if (final) ended = true;
  });
  const PIECE = 4096;
  try {
    for (let i = 0; i < data.length || i === 0; i += PIECE) {
      inflate.push(data.subarray(i, i + PIECE), i + PIECE >= data.length);
      if (total > limit)
        throw new ShareError(
          `The link's ${what} is too large once unpacked (over ${limit.toLocaleString('en-US')} bytes).`,
        );
    }
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError(`The link's ${what} cannot be unpacked (bad compressed data); was it cut short or edited?`);
  }
  if (!ended) throw new ShareError(`The link's ${what} is cut short (its compressed data ends early).`);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A compressed trace segment, ready to put in a link (compute once per trace). */
export function traceSegment(bytes: Uint8Array): string {
  return toBase64Url(compress(bytes));
}

/** The fragment (with its `#`) for `state` and, optionally, an embedded trace segment. */
export function encodeFragment(state: object, traceSeg?: string): string {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const parts = [`#${SHARE_PREFIX}${SHARE_VERSION}`, toBase64Url(compress(json))];
  if (traceSeg) parts.push(traceSeg);
  return parts.join('.');
}

/** Whether `hash` (location.hash) looks like a shared link at all (else it is left alone). */
export function isShareFragment(hash: string): boolean {
  return hash.replace(/^#/, '').startsWith(SHARE_PREFIX);
}

/**
 * Decodes a fragment written by encodeFragment. Throws a ShareError for a wrong version,
 * damaged base64, bad or truncated compression, oversize content, or state that is not a
 * JSON object.
 */
export function decodeFragment(hash: string): Decoded {
  const body = hash.replace(/^#/, '');
  if (body.length > MAX_FRAGMENT_CHARS)
    throw new ShareError(`The link is too long to be one of ours (${body.length.toLocaleString('en-US')} characters).`);
  const m = /^ftl(\d{1,6})\.([^.]*)(?:\.([^.]*))?$/.exec(body);
  if (!m)
    throw new ShareError('The link is not a complete FTL Lab link (its parts are missing or extra); was it cut short?');
  const version = Number(m[1]);
  if (version !== SHARE_VERSION) {
    throw new ShareError(
      `The link is in format ${version}, and this FTL Lab reads format ${SHARE_VERSION}; open it with the version that made it.`,
    );
  }
  if (!m[2]) throw new ShareError('The link holds no experiment (its state part is empty); was it cut short?');
  const raw = decompress(fromBase64Url(m[2], 'experiment'), MAX_STATE_BYTES, 'experiment');
  let state: unknown;
  try {
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new ShareError("The link's experiment is not readable (not JSON text).");
  }
  if (!state || typeof state !== 'object' || Array.isArray(state))
    throw new ShareError("The link's experiment is not a JSON object.");
  const trace =
    m[3] !== undefined
      ? decompress(fromBase64Url(m[3], 'embedded trace'), MAX_TRACE_BYTES, 'embedded trace')
      : undefined;
  return trace ? { state, trace, traceSegment: m[3] } : { state };
}
