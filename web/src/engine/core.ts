/**
 * SimCore answers protocol messages with a wasm Simulation. It knows nothing about
 * workers, so the worker, a main-thread fallback and Node tests all share it. Long work
 * comes back as a generator of progress reports (see `run`); `handle` runs it to the end.
 */
import type { FromWorker, SchemeInfo, SimInfo, ToWorker, ViewData } from './protocol';
import { frameTransfer } from './protocol';
import { Session, type Progress } from './session';
import type { WasmApi } from './wasmApi';

export type { WasmApi, WasmSimulation } from './wasmApi';

/** A reply and the buffers to transfer with it. */
export type Reply = [FromWorker, ArrayBuffer[]];

export class SimCore {
  private session: Session | null = null;

  constructor(
    private readonly wasm: WasmApi,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Handles one message to completion; returns the reply and the buffers to transfer. */
  handle(msg: ToWorker): Reply {
    const work = this.run(msg);
    for (;;) {
      const r = work.next();
      if (r.done) return r.value;
    }
  }

  /** Handles one message, yielding progress between chunks of long work. */
  *run(msg: ToWorker): Generator<Progress, Reply, void> {
    try {
      if (this.session) this.session.cancelled = false;
      return yield* this.dispatch(msg);
    } catch (e) {
      return [{ type: 'error', id: msg.id, message: errorMessage(e) }, []];
    }
  }

  /** Stops the long work in progress at its next chunk boundary. */
  cancel() {
    if (this.session) this.session.cancelled = true;
  }

  private *dispatch(msg: ToWorker): Generator<Progress, Reply, void> {
    const id = msg.id;
    switch (msg.type) {
      case 'load': {
        // Events drive narration, op stepping and the page table, so they are always on.
        const config = { ...JSON.parse(msg.configJson), record_events: true };
        const sim = new this.wasm.Simulation(JSON.stringify(config), new Uint8Array(msg.trace), msg.traceName, msg.format ?? null);
        this.session?.sim.free();
        const metrics = JSON.parse(sim.metricsJson());
        const info: SimInfo = {
          total: sim.total(),
          counterNames: this.wasm.counterNames(),
          blocks: metrics.config.device.blocks,
          pagesPerBlock: metrics.config.device.pages_per_block,
          scheme: metrics.config.scheme,
          traceName: msg.traceName,
          schemes: JSON.parse(this.wasm.schemesJson()) as SchemeInfo[],
          hasMappingCache: metrics.mapping != null,
        };
        this.session = new Session(sim, info, this.now);
        const view = this.session.refresh();
        return [{ type: 'loaded', id, info, view }, frameTransfer(view.frame)];
      }
      case 'step':
        return viewReply(id, this.need().step(msg.requests, msg.budgetMs, msg.hash ?? false));
      case 'stepOp':
        return viewReply(id, yield* this.need().stepOp(msg.delta));
      case 'back':
        return viewReply(id, yield* this.need().back(msg.requests));
      case 'seek':
        return viewReply(id, yield* this.need().seek(msg.request, msg.op ?? 0));
      case 'jump':
        return viewReply(id, yield* this.need().jump(msg.what));
      case 'frame':
        return viewReply(id, this.need().refresh());
      case 'metrics':
        return [{ type: 'metrics', id, json: this.need().sim.metricsJson() }, []];
      case 'pageInfo':
        return [{ type: 'pageInfo', id, info: this.need().table.info(msg.ppn) }, []];
      case 'responses': {
        const series = this.need().responses();
        return [{ type: 'responses', id, series }, [series.max.buffer, series.argmax.buffer, series.mean.buffer] as ArrayBuffer[]];
      }
      case 'cancel':
        this.cancel();
        return [{ type: 'error', id, message: 'cancel has no reply' }, []];
    }
  }

  private need(): Session {
    if (!this.session) throw new Error('no simulation loaded');
    return this.session;
  }
}

function viewReply(id: number, view: ViewData): Reply {
  return [{ type: 'view', id, view }, frameTransfer(view.frame)];
}

/** Text of anything thrown (wasm throws Error objects built from engine errors). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
