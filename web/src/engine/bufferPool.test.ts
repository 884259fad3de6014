import { describe, expect, it } from 'vitest';
import { BufferPool } from './bufferPool';

describe('BufferPool', () => {
  it('reuses a returned buffer that is large enough', () => {
    const pool = new BufferPool();
    const a = pool.take(1000);
    expect(a.byteLength).toBeGreaterThanOrEqual(1000);
    pool.give(a);
    expect(pool.take(900)).toBe(a);
    expect(pool.made).toBe(1);
  });

  it('does not hand out a returned buffer that is too small', () => {
    const pool = new BufferPool();
    const small = pool.take(256);
    pool.give(small);
    const big = pool.take(5000);
    expect(big).not.toBe(small);
    expect(big.byteLength).toBeGreaterThanOrEqual(5000);
    expect(pool.made).toBe(2);
    // The small one is still there for a small request.
    expect(pool.take(100)).toBe(small);
  });

  it('takes the smallest buffer that fits, and keeps at most its limit (the largest)', () => {
    const pool = new BufferPool(2);
    const [a, b, c] = [pool.take(300), pool.take(3000), pool.take(30000)];
    pool.give(a);
    pool.give(c);
    pool.give(b); // full: b replaces a, the smallest
    expect(pool.size).toBe(2);
    expect(pool.take(200)).toBe(b);
    expect(pool.take(200)).toBe(c);
  });

  it('ignores a detached buffer and one given twice', () => {
    const pool = new BufferPool();
    const a = pool.take(512);
    structuredClone(a, { transfer: [a] });
    pool.give(a);
    expect(pool.size).toBe(0);
    const b = pool.take(512);
    pool.give(b);
    pool.give(b);
    expect(pool.size).toBe(1);
  });
});
