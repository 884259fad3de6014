/**
 * Synchronised playback: two simulations of the same trace and device under two
 * schemes, in the app's worker under their own ids, moved together. Each side is an
 * ordinary SimStore (so the block grid, cache panel and narration work unchanged); the pair
 * sends every move to both, one after the other, so after each move both stand at the same
 * request.
 */
import type { SimClient } from '../../engine/client';
import type { Experiment } from '../../store/experiment';
import { SimStore } from '../../store/store';
import { ScopedClient } from './scopedClient';

/** Simulation ids of the two sides (the app's own is 0; the comparison lab's pool uses other workers). */
export const SYNC_SIMS = [101, 102] as const;

export class SyncPair {
  readonly sides: [SimStore, SimStore];
  private readonly clients: [ScopedClient, ScopedClient];

  constructor(base: SimClient) {
    this.clients = [new ScopedClient(base, SYNC_SIMS[0]), new ScopedClient(base, SYNC_SIMS[1])];
    this.sides = [new SimStore(this.clients[0]), new SimStore(this.clients[1])];
  }

  /**
   * Loads `experiment` under each scheme, one side after the other (the worker has one
   * trace loader, so two streams must not interleave).
   */
  async load(experiment: Experiment, schemes: [string, string]): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const config = { ...experiment.config, scheme: schemes[i], options: {} };
      await this.sides[i].load({ ...experiment, config });
    }
  }

  /** Whether both sides are loaded and can move. */
  get live(): boolean {
    return this.sides.every((s) => s.live);
  }

  /** Requests both sides stand at (they agree after every move of the pair). */
  get request(): number {
    return this.sides[0].getState().pos.request;
  }

  /** Requests in the trace. */
  get total(): number {
    return this.sides[0].getState().info?.total ?? 0;
  }

  private async both(move: (s: SimStore) => Promise<unknown>) {
    for (const s of this.sides) await move(s);
  }

  step(requests = 1) {
    return this.both((s) => s.step(requests));
  }

  back(requests = 1) {
    return this.both((s) => s.back(requests));
  }

  seek(request: number) {
    return this.both((s) => s.seek(request));
  }

  /** Frees both simulations in the worker. */
  async drop() {
    for (const c of this.clients) await c.drop();
  }
}
