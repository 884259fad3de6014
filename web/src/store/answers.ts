/**
 * The engine's answers to the views' inspection questions, cached by (position, query): two
 * views asking the same question at the same place share one answer, a view asking a
 * different question (the tree zoomed, the grid's block pairs) gets its own, and all of them
 * can be held at once. The cache belongs to one loaded simulation (its `SimInfo`): a new
 * load starts it afresh. Answers are stored under the position the worker answered at
 * (a move still in flight when the question left is then not mistaken for the old place).
 */
import { queryKey, type InspectQuery, type Inspection } from '../engine/inspection';
import type { Position, SimInfo } from '../engine/protocol';

/** Answers kept (a few views, a few positions back for stepping to and fro). */
const KEEP = 32;

const placeKey = (pos: Position, query: InspectQuery) => `${pos.request}.${pos.op}|${queryKey(query)}`;

export class Answers {
  private sim: SimInfo | undefined;
  /** By place key, oldest first (a Map keeps insertion order). */
  private held = new Map<string, Inspection>();
  private asking = new Map<string, Promise<Inspection | null>>();

  constructor(private readonly ask: (query: InspectQuery) => Promise<{ inspection: Inspection; at: Position }>) {}

  /** The cached answer to `query` at `pos` of simulation `sim`, if any. */
  get(sim: SimInfo | undefined, pos: Position, query: InspectQuery): Inspection | undefined {
    this.follow(sim);
    return this.held.get(placeKey(pos, query));
  }

  /**
   * The answer to `query` at `pos` of `sim`: from the cache, or asked once (a second view
   * asking meanwhile waits for the same reply). Null when the engine could not answer.
   */
  fetch(sim: SimInfo | undefined, pos: Position, query: InspectQuery): Promise<Inspection | null> {
    const cached = this.get(sim, pos, query);
    if (cached) return Promise.resolve(cached);
    const key = placeKey(pos, query);
    const pending = this.asking.get(key);
    if (pending) return pending;
    const p = this.ask(query).then(
      ({ inspection, at }) => {
        if (this.sim === sim) this.put(placeKey(at, query), inspection);
        return inspection;
      },
      () => null,
    );
    this.asking.set(key, p);
    void p.finally(() => this.asking.delete(key));
    return p;
  }

  private put(key: string, inspection: Inspection) {
    this.held.delete(key);
    this.held.set(key, inspection);
    while (this.held.size > KEEP) this.held.delete(this.held.keys().next().value!);
  }

  /** A new simulation: forget the old one's answers. */
  private follow(sim: SimInfo | undefined) {
    if (sim === this.sim) return;
    this.sim = sim;
    this.held.clear();
    this.asking.clear();
  }
}
