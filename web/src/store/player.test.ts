import { describe, expect, it } from 'vitest';
import { Pacer, PlayLoop, type PlayHost } from './player';

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

describe('PlayLoop', () => {
  it('drives a host until it says it is finished, then tells it the loop ended', async () => {
    // requestAnimationFrame in Node: run the callback on the next macrotask.
    const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };
    const raf = g.requestAnimationFrame;
    g.requestAnimationFrame = (cb) => setTimeout(() => cb(performance.now()), 0) as unknown as number;
    try {
      let served = 0;
      let ended = 0;
      const host: PlayHost = {
        speed: () => ({ unit: 'request', perSecond: Infinity }),
        tick: async (n) => {
          const k = Math.min(n, 7, 20 - served);
          served += k;
          return k;
        },
        tickOp: async () => {},
        finished: () => served >= 20,
        refreshChart: () => {},
        ended: () => void ended++,
      };
      const loop = new PlayLoop(host);
      loop.start();
      expect(loop.running).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
      expect(served).toBe(20);
      expect(ended).toBe(1);
      expect(loop.running).toBe(false);
      expect(loop.stop()).toBe(false); // already stopped: the host has nothing to settle
    } finally {
      g.requestAnimationFrame = raf;
    }
  });
});
