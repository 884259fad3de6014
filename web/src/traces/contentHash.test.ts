import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash, HASH_CHUNK_BYTES, isChunkedHash, toHex } from './contentHash';

const text = (s: string) => new TextEncoder().encode(s);
const nodeSha = (b: Uint8Array) => createHash('sha256').update(b).digest();

describe('contentHash', () => {
  it('is the plain SHA-256 of a small file (FIPS 180-2 "abc" vector), from bytes or a Blob', async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(await contentHash(text('abc'))).toBe(abc);
    expect(await contentHash(new Blob([text('abc')]))).toBe(abc);
    expect(await contentHash(new Uint8Array(0))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('hashes a large file piecewise: SHA-256 of the piece digests, then the size big-endian', async () => {
    const bytes = new Uint8Array(25);
    bytes.forEach((_, i) => (bytes[i] = (i * 37) % 251));
    const chunkBytes = 10; // pieces 0..10, 10..20, 20..25
    const size = Buffer.alloc(8);
    size.writeBigUInt64BE(25n);
    const expected = nodeSha(
      Buffer.concat([
        nodeSha(bytes.subarray(0, 10)),
        nodeSha(bytes.subarray(10, 20)),
        nodeSha(bytes.subarray(20)),
        size,
      ]),
    );
    expect(await contentHash(bytes, { chunkBytes })).toBe(expected.toString('hex'));
    expect(await contentHash(new Blob([bytes]), { chunkBytes })).toBe(expected.toString('hex'));
    // Exactly one piece's worth is still the plain digest.
    expect(await contentHash(bytes.subarray(0, 10), { chunkBytes })).toBe(
      nodeSha(bytes.subarray(0, 10)).toString('hex'),
    );
  });

  it('changes when any byte of a large file changes, and reports progress per piece', async () => {
    const bytes = new Uint8Array(35).fill(7);
    const seen: number[] = [];
    const before = await contentHash(bytes, { chunkBytes: 10, onProgress: (d) => seen.push(d) });
    expect(seen).toEqual([10, 20, 30, 35]);
    bytes[34] = 8;
    expect(await contentHash(bytes, { chunkBytes: 10 })).not.toBe(before);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(contentHash(new Uint8Array(30), { chunkBytes: 10, signal: ac.signal })).rejects.toThrow('stop');
  });

  it('names the rule by size and writes lower-case hex', () => {
    expect(isChunkedHash(HASH_CHUNK_BYTES)).toBe(false);
    expect(isChunkedHash(HASH_CHUNK_BYTES + 1)).toBe(true);
    expect(toHex(new Uint8Array([0, 15, 255]).buffer)).toBe('000fff');
  });
});
