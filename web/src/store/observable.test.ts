import { expect, test } from 'vitest';
import { Observable } from './observable';

class Counter extends Observable<{ n: number; name: string }> {
  constructor() {
    super({ n: 0, name: 'a' });
  }
  bump() {
    this.set({ n: this.state.n + 1 });
  }
}

test('a patch replaces the state object, keeps the other fields and tells every listener until it unsubscribes', () => {
  const c = new Counter();
  const before = c.getState();
  const seen: number[] = [];
  const off = c.subscribe(() => seen.push(c.getState().n));
  c.subscribe(() => seen.push(-c.getState().n));
  c.bump();
  expect(c.getState()).toEqual({ n: 1, name: 'a' });
  expect(c.getState()).not.toBe(before);
  expect(before).toEqual({ n: 0, name: 'a' });
  off();
  c.bump();
  expect(seen).toEqual([1, -1, -2]);
});
