/**
 * State a view reads with `useSyncExternalStore`: one value, replaced (never mutated) by
 * patches, and listeners told of each patch. The simulation store, the comparison and sweep
 * labs and the share controller all keep their state this way.
 */
export class Observable<S extends object> {
  private readonly listeners = new Set<() => void>();

  constructor(protected state: S) {}

  getState = (): S => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Replaces part of the state and notifies subscribers (tests seed a store's state with
   * `store['set']`). */
  protected set(patch: Partial<S>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }
}
