/**
 * SimClient: a promise API over the engine worker. Replies are matched by id; progress
 * reports for an id go to that call's `onProgress`. If the worker dies or its wasm traps
 * (a `fatal` error), pending calls fail and the next call starts a new worker: a trapped
 * wasm instance is never reused.
 */
import { FrameReceiver } from './frameWire';
import { MAIN_SIM, type FromWorker, type SimId, type ToWorker } from './protocol';

/** An engine request that failed, with what the worker said about the failure. */
export class EngineError extends Error {
  constructor(
    message: string,
    /** The wasm instance trapped; the worker was replaced and its simulation is gone. */
    readonly fatal = false,
    /** A `cancel` stopped the request before it changed anything. */
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Whether `e` says the engine's worker (and the simulation in it) was lost. */
export function isFatal(e: unknown): boolean {
  return e instanceof EngineError && e.fatal;
}

type ProgressFn = (p: { label: string; done: number; total: number }) => void;
type Pending = { resolve: (m: FromWorker) => void; reject: (e: Error) => void; onProgress?: ProgressFn; sim: SimId };
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

export class SimClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** Frames come from the worker as changes (frameWire.ts). */
  private frames = new FrameReceiver();

  private start(): Worker {
    const w = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
    this.frames.reset();
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      if (e.data.type === 'progress') {
        p.onProgress?.(e.data);
        return;
      }
      this.pending.delete(e.data.id);
      if (e.data.type !== 'error') {
        let reply: FromWorker;
        try {
          reply = this.frames.receive(e.data, p.sim);
          // The change list's buffers go back to the worker's pool once applied.
          const back = this.frames.takeBack();
          if (back.length) w.postMessage({ type: 'recycle', id: 0, buffers: back } satisfies ToWorker, back);
        } catch (err) {
          // The two ends no longer agree on the frames (frameWire.ts), and every later change
          // list would fail too: treat it as a crash, so the next request starts afresh.
          const lost = new EngineError(String((err as Error).message ?? err), true);
          p.reject(lost);
          if (this.worker === w) this.fail(lost);
          return;
        }
        return p.resolve(reply);
      }
      const err = new EngineError(e.data.message, e.data.fatal, e.data.cancelled);
      p.reject(err);
      // A trapped wasm instance is never used again: the next request starts a new worker.
      if (err.fatal && this.worker === w) this.fail(err);
    };
    w.onerror = (e) => {
      if (this.worker === w)
        this.fail(new EngineError(`The engine worker crashed (${e.message || 'unknown error'}).`, true));
    };
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
      this.pending.set(id, {
        resolve: resolve as (m: FromWorker) => void,
        reject,
        onProgress,
        sim: body.sim ?? MAIN_SIM,
      });
      this.worker!.postMessage(msg, transfer);
    });
  }

  /**
   * Ends the worker at once: pending calls fail as cancelled and the next call starts a new
   * worker (the comparison lab's Stop, which must not wait for a run's next slice).
   */
  stop() {
    if (this.worker) this.fail(new EngineError('Stopped.', false, true));
  }

  /** Asks the worker to stop its long work early (the pending call still resolves). */
  cancel() {
    this.worker?.postMessage({ type: 'cancel', id: 0 } satisfies ToWorker);
  }
}
