// The views' inspection answers: cached by (position, query), several held at once, stored
// where the worker answered, forgotten with the simulation.
import { describe, expect, it } from 'vitest';
import type { InspectQuery, Inspection } from '../engine/inspection';
import type { Position } from '../engine/protocol';
import { fakeInfo } from '../test/fakeClient';
import { Answers } from './answers';

const at = (request: number, op = 0): Position => ({ request, op, ops: 0 });
const answer = (ram_used: number): Inspection => ({ ram_budget: 100, ram_used, budgets: [], structures: [] });

/** An engine that answers with a counter, standing at `where`. */
function engine() {
  const asked: InspectQuery[] = [];
  const e = {
    asked,
    where: at(1),
    ask: async (q: InspectQuery) => (asked.push(q), { inspection: answer(asked.length), at: e.where }),
  };
  return e;
}

describe('Answers', () => {
  it('asks once per position and query, and holds different questions side by side', async () => {
    const e = engine();
    const a = new Answers(e.ask);
    const sim = fakeInfo(10);
    const whole = await a.fetch(sim, at(1), {});
    const zoomed = await a.fetch(sim, at(1), { focus: 'ctp-3' });
    expect(await a.fetch(sim, at(1), {})).toBe(whole);
    expect(await a.fetch(sim, at(1), { focus: 'ctp-3' })).toBe(zoomed);
    expect(whole).not.toBe(zoomed);
    expect(e.asked).toEqual([{}, { focus: 'ctp-3' }]);
    // Field order and undefined fields make no new question.
    expect(await a.fetch(sim, at(1), { focus: undefined })).toBe(whole);
    e.where = at(2);
    expect(await a.fetch(sim, at(2), {})).not.toBe(whole);
    expect(e.asked).toHaveLength(3);
  });

  it('shares one reply between views asking at once', async () => {
    const e = engine();
    const a = new Answers(e.ask);
    const sim = fakeInfo(10);
    const [x, y] = await Promise.all([a.fetch(sim, at(1), {}), a.fetch(sim, at(1), {})]);
    expect(x).toBe(y);
    expect(e.asked).toHaveLength(1);
  });

  it('files an answer under the position the worker answered at (a move was in flight)', async () => {
    const e = engine();
    const a = new Answers(e.ask);
    const sim = fakeInfo(10);
    e.where = at(5, 2);
    const got = await a.fetch(sim, at(4), {});
    expect(a.get(sim, at(4), {})).toBeUndefined();
    expect(a.get(sim, at(5, 2), {})).toBe(got);
  });

  it('forgets the answers of a simulation when another is loaded', async () => {
    const e = engine();
    const a = new Answers(e.ask);
    const first = fakeInfo(10);
    await a.fetch(first, at(1), {});
    expect(a.get(fakeInfo(10), at(1), {})).toBeUndefined();
    expect(a.get(first, at(1), {})).toBeUndefined();
  });

  it('answers null when the engine fails, and asks again next time', async () => {
    let fail = true;
    const a = new Answers(async () => {
      if (fail) throw new Error('no');
      return { inspection: answer(1), at: at(1) };
    });
    const sim = fakeInfo(10);
    expect(await a.fetch(sim, at(1), {})).toBeNull();
    fail = false;
    expect(await a.fetch(sim, at(1), {})).not.toBeNull();
  });
});
