/**
 * Uploaded traces in links: an upload is named by its content hash (traces/contentHash.ts,
 * the same hash the trace library keys on), and travels inside the link when it compresses
 * to EMBED_MAX_BYTES or less. Hashing and compressing are done once per file.
 */
import { contentHash } from '../traces/contentHash';
import { compress, EMBED_MAX_BYTES, toBase64Url } from './codec';

/** What a link says about an uploaded trace, and its embedded segment when small enough. */
export interface UploadRef {
  name: string;
  hash: string;
  size: number;
  /** The compressed trace as a link segment (absent: too large to travel in a link). */
  segment?: string;
}

/**
 * Files larger than this are not tried for embedding: no trace compresses 16-fold into
 * EMBED_MAX_BYTES often enough to be worth reading a bigger file whole.
 */
const EMBED_TRY_BYTES = 16 * EMBED_MAX_BYTES;

const described = new WeakMap<Blob, Promise<UploadRef>>();
/** Files met this session by hash, so back / forward between uploads needs no file picker. */
const byHash = new Map<string, File>();

async function describe(file: File, knownHash?: string): Promise<UploadRef> {
  const hash = knownHash ?? (await contentHash(file));
  byHash.set(hash, file);
  const ref: UploadRef = { name: file.name, hash, size: file.size };
  if (file.size <= EMBED_TRY_BYTES) {
    const packed = compress(new Uint8Array(await file.arrayBuffer()));
    if (packed.length <= EMBED_MAX_BYTES) ref.segment = toBase64Url(packed);
  }
  return ref;
}

/**
 * The link's description of `file` (hashed and compressed the first time only); `knownHash`
 * is its content hash when already computed (the trace library hashes every upload).
 */
export function describeUpload(file: File, knownHash?: string): Promise<UploadRef> {
  let p = described.get(file);
  if (!p) {
    p = describe(file, knownHash);
    described.set(file, p);
    p.catch(() => described.delete(file));
  }
  return p;
}

/** Records a file rebuilt from a link (its description is known: no need to redo it). */
export function rememberUpload(file: File, ref: UploadRef) {
  described.set(file, Promise.resolve(ref));
  byHash.set(ref.hash, file);
}

/** A file with content hash `hash` met this session, if any. */
export function uploadByHash(hash: string): File | undefined {
  return byHash.get(hash);
}
