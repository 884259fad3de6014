/**
 * A trace's content hash: the key of the trace library and the check a shared link makes on a
 * file the recipient supplies. Computed with the platform's SHA-256 (Web Crypto), over the
 * file's bytes exactly as given (a `.gz` upload is hashed compressed, as it sits on disk).
 *
 * Web Crypto has no streaming digest, and a 1 GB upload must not be held in one buffer. So:
 * - up to HASH_CHUNK_BYTES (16 MiB): the plain SHA-256 of the bytes, which is what
 *   `sha256sum FILE` prints, so a user can check it by hand;
 * - larger: SHA-256 over the concatenated SHA-256 digests of each 16 MiB piece, followed by
 *   the file size as 8 bytes big-endian. Every byte still counts (any change anywhere changes
 *   the hash), memory stays at one piece, and the size suffix keeps a large file's hash from
 *   ever equalling a small file's. It is not `sha256sum`'s value; `isChunkedHash(size)` says
 *   which rule a file of that size follows.
 * Both sides of a link use this function, so the rule only has to be the same everywhere.
 */

/** Piece size for large files; also the largest file hashed in one digest. */
export const HASH_CHUNK_BYTES = 16 * 1024 * 1024;

/** Lower-case hex of `buf`. */
export function toHex(buf: ArrayBuffer): string {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether a file of `size` bytes is hashed piecewise (not equal to `sha256sum`). */
export function isChunkedHash(size: number, chunkBytes = HASH_CHUNK_BYTES): boolean {
  return size > chunkBytes;
}

/** Options for contentHash; `chunkBytes` exists so tests can use small pieces. */
export interface HashOptions {
  /** Called after each piece with bytes hashed so far and the total. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  chunkBytes?: number;
}

/** Bytes `from..to` of `src` as an ArrayBuffer (a Blob is read piece by piece). */
async function piece(src: Blob | Uint8Array, from: number, to: number): Promise<ArrayBuffer | Uint8Array> {
  return src instanceof Uint8Array ? src.subarray(from, to) : src.slice(from, to).arrayBuffer();
}

function sha256(data: BufferSource): Promise<ArrayBuffer> {
  // Web Crypto exists only in secure contexts (https, localhost).
  const subtle = globalThis.crypto?.subtle;
  if (!subtle)
    throw new Error(
      'the page is not served over https or from localhost, so the browser offers no SHA-256 to name the trace by',
    );
  return subtle.digest('SHA-256', data);
}

/** The content hash of `src` (64 hex digits); see the rule above. */
export async function contentHash(src: Blob | Uint8Array, opts: HashOptions = {}): Promise<string> {
  const chunk = opts.chunkBytes ?? HASH_CHUNK_BYTES;
  const size = src instanceof Uint8Array ? src.length : src.size;
  opts.signal?.throwIfAborted();
  if (!isChunkedHash(size, chunk)) {
    const digest = await sha256((await piece(src, 0, size)) as BufferSource);
    opts.onProgress?.(size, size);
    return toHex(digest);
  }
  const pieces = Math.ceil(size / chunk);
  // Digests of each piece, then the size: 32 bytes a piece + 8.
  const joined = new Uint8Array(pieces * 32 + 8);
  for (let i = 0; i < pieces; i++) {
    opts.signal?.throwIfAborted();
    const to = Math.min(size, (i + 1) * chunk);
    joined.set(new Uint8Array(await sha256((await piece(src, i * chunk, to)) as BufferSource)), i * 32);
    opts.onProgress?.(to, size);
  }
  new DataView(joined.buffer).setBigUint64(pieces * 32, BigInt(size), false);
  return toHex(await sha256(joined));
}
