/**
 * SimClient: a promise API over the engine worker. Replies are matched by id; progress
 * reports for an id go to that call's `onProgress`. If the worker dies, pending calls fail
 * and the next call starts a new worker (never reuse a trapped wasm instance).
 */
import type { FromWorker, ToWorker } from './protocol';

type ProgressFn = (p: { label: string; done: number; total: number }) => void;
type Pending = { resolve: (m: FromWorker) => void; reject: (e: Error) => void; onProgress?: ProgressFn };
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

export class SimClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  private start(): Worker {
    const w = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      if (e.data.type === 'progress') {
        p.onProgress?.(e.data);
        return;
      }
      this.pending.delete(e.data.id);
      if (e.data.type === 'error') p.reject(new Error(e.data.message));
      else p.resolve(e.data);
    };
    w.onerror = (e) => this.fail(new Error(`engine worker crashed: ${e.message || 'unknown error'}`));
    return w;
  }

  private fail(err: Error) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
  }

  /** Sends a message and resolves with its reply (rejects on an engine error). */
  request<T extends FromWorker['type']>(
    body: Body<ToWorker>,
    transfer: Transferable[] = [],
    onProgress?: ProgressFn,
  ): Promise<Extract<FromWorker, { type: T }>> {
    this.worker ??= this.start();
    const id = this.nextId++;
    const msg = { ...body, id } as ToWorker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (m: FromWorker) => void, reject, onProgress });
      this.worker!.postMessage(msg, transfer);
    });
  }

  /** Asks the worker to stop its long work early (the pending call still resolves). */
  cancel() {
    this.worker?.postMessage({ type: 'cancel', id: 0 } satisfies ToWorker);
  }
}
