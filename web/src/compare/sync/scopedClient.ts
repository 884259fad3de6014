/**
 * A SimClient that speaks for one simulation of another client's worker: every request
 * carries its `sim` id (protocol.ts), so a second SimStore can run beside the app's own in
 * the same worker (synchronised playback) and reuse every view unchanged.
 */
import { SimClient } from '../../engine/client';
import type { FromWorker, SimId, ToWorker } from '../../engine/protocol';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;
type ProgressFn = (p: { label: string; done: number; total: number }) => void;

export class ScopedClient extends SimClient {
  constructor(
    private readonly base: SimClient,
    readonly sim: SimId,
  ) {
    super();
  }

  override request<T extends FromWorker['type']>(
    body: Body<ToWorker>,
    transfer: Transferable[] = [],
    onProgress?: ProgressFn,
  ): Promise<Extract<FromWorker, { type: T }>> {
    return this.base.request<T>({ ...body, sim: this.sim } as Body<ToWorker>, transfer, onProgress);
  }

  /** Cancels the worker's long work (the worker has one cancel flag for all simulations). */
  override cancel() {
    this.base.cancel();
  }

  /** The worker is shared: stopping it would end the app's simulation too. */
  override stop() {}

  /** Frees this simulation in the worker. */
  async drop(): Promise<void> {
    await this.base.request({ type: 'drop', sim: this.sim }).catch(() => undefined);
  }
}
