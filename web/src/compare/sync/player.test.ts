// The pair's play loop: steps both sides at its pace until the end of the trace or a stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PairPlayer } from './player';

describe('PairPlayer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('steps at its pace until no request remains, and says when it starts and stops', async () => {
    let at = 0;
    const heard: boolean[] = [];
    const p = new PairPlayer(
      async () => ++at < 3,
      (on) => heard.push(on),
      100,
    );
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(at).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(at).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(at).toBe(3);
    expect(p.playing).toBe(false);
    expect(heard).toEqual([true, false]);
  });

  it('stops between steps when toggled, and a failed step stops it', async () => {
    let at = 0;
    const p = new PairPlayer(
      async () => (++at, true),
      () => {},
      100,
    );
    p.toggle();
    await vi.advanceTimersByTimeAsync(250);
    p.toggle();
    const stoppedAt = at;
    await vi.advanceTimersByTimeAsync(1000);
    expect(at).toBe(stoppedAt);
    const failing = new PairPlayer(
      async () => Promise.reject(new Error('side lost')),
      () => {},
      100,
    );
    failing.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.playing).toBe(false);
  });
});
