/**
 * A SimClient stand-in for Vitest that answers through SimCore in-process with the real
 * wasm build: messages run one at a time, as in the worker, and long work yields to the
 * event loop between slices (so a test can cancel, as Esc does).
 */
import { EngineError } from '../engine/client';
import { SimCore } from '../engine/core';
import { wholeFrame } from '../engine/frameWire';
import type { FromWorker, ToWorker } from '../engine/protocol';
import { loadWasm } from './wasmNode';

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;
type ProgressFn = (p: { label: string; done: number; total: number }) => void;

/** SimCore behind SimClient's `request` / `cancel` (see the file comment). */
export class CoreClient {
  readonly core = new SimCore(loadWasm());
  /** Types of the messages sent, in order. */
  readonly sent: string[] = [];
  /** Called at every slice boundary of long work, with the message's type. */
  onSlice?: (type: string) => void;
  private nextId = 1;
  private chain: Promise<unknown> = Promise.resolve();

  request<T extends FromWorker['type']>(
    body: Body<ToWorker>,
    _transfer?: Transferable[],
    onProgress?: ProgressFn,
  ): Promise<Extract<FromWorker, { type: T }>> {
    this.sent.push(body.type);
    const msg = { ...body, id: this.nextId++ } as ToWorker;
    const run = async () => {
      const work = this.core.run(msg);
      for (;;) {
        const r = work.next();
        if (r.done) {
          const reply = wholeFrame(r.value[0]);
          if (reply.type === 'error') throw new EngineError(reply.message, reply.fatal, reply.cancelled);
          return reply as Extract<FromWorker, { type: T }>;
        }
        onProgress?.(r.value);
        this.onSlice?.(msg.type);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    };
    const p = this.chain.then(run);
    this.chain = p.catch(() => {});
    return p;
  }

  cancel() {
    this.core.cancel();
  }
}
