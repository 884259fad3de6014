import { describe, expect, it } from 'vitest';
import { Pacer } from './player';

describe('Pacer', () => {
  it('spreads slow speeds over frames without losing steps', () => {
    const p = new Pacer();
    let total = 0;
    for (let i = 0; i < 120; i++) total += p.take(1, 1000 / 60); // two seconds at 60 fps
    expect(total).toBe(2);
  });

  it('steps many requests per frame at high speed, capping long gaps', () => {
    const p = new Pacer();
    expect(p.take(1000, 16)).toBe(16);
    expect(p.take(1000, 10_000)).toBe(250); // a backgrounded tab comes back with at most 250 ms
    expect(p.take(Infinity, 16)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
