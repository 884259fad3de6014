/**
 * SimCore answers protocol messages with a wasm Simulation. It knows nothing about
 * workers, so the worker, a main-thread fallback and Node tests all share it.
 */
import type { FrameData, FromWorker, ToWorker } from './protocol';
import { frameTransfer } from './protocol';

/** The parts of the wasm module SimCore uses (so tests can pass the Node-loaded module). */
export interface WasmApi {
  Simulation: new (configJson: string, trace: Uint8Array, traceName: string, format?: string | null) => WasmSimulation;
  counterNames(): string[];
}

/** The wasm Simulation object's surface. */
export interface WasmSimulation {
  step(n: number): number;
  cursor(): number;
  total(): number;
  done(): boolean;
  frame(): Omit<FrameData, 'hash'>;
  metricsJson(): string;
  stateHash(): string;
  free(): void;
}

/** Requests stepped between clock checks when working to a time budget. */
const CHUNK = 64;

export class SimCore {
  private sim: WasmSimulation | null = null;

  constructor(
    private readonly wasm: WasmApi,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Handles one message; returns the reply and the buffers to transfer with it. */
  handle(msg: ToWorker): [FromWorker, ArrayBuffer[]] {
    try {
      return this.dispatch(msg);
    } catch (e) {
      return [{ type: 'error', id: msg.id, message: errorMessage(e) }, []];
    }
  }

  private dispatch(msg: ToWorker): [FromWorker, ArrayBuffer[]] {
    switch (msg.type) {
      case 'load': {
        const sim = new this.wasm.Simulation(msg.configJson, new Uint8Array(msg.trace), msg.traceName, msg.format ?? null);
        this.sim?.free();
        this.sim = sim;
        const config = JSON.parse(sim.metricsJson()).config;
        const frame = this.frame();
        const info = {
          total: sim.total(),
          counterNames: this.wasm.counterNames(),
          blocks: config.device.blocks,
          pagesPerBlock: config.device.pages_per_block,
          scheme: config.scheme,
          traceName: msg.traceName,
        };
        return [{ type: 'loaded', id: msg.id, info, frame }, frameTransfer(frame)];
      }
      case 'step': {
        const sim = this.need();
        const start = this.now();
        let stepped = 0;
        while (stepped < msg.requests && !sim.done()) {
          stepped += sim.step(Math.min(CHUNK, msg.requests - stepped));
          if (this.now() - start >= msg.budgetMs) break;
        }
        const frame = this.frame();
        return [{ type: 'frame', id: msg.id, frame, stepped, done: sim.done() }, frameTransfer(frame)];
      }
      case 'frame': {
        const frame = this.frame();
        return [{ type: 'frame', id: msg.id, frame, stepped: 0, done: this.need().done() }, frameTransfer(frame)];
      }
      case 'metrics':
        return [{ type: 'metrics', id: msg.id, json: this.need().metricsJson() }, []];
    }
  }

  private need(): WasmSimulation {
    if (!this.sim) throw new Error('no simulation loaded');
    return this.sim;
  }

  private frame(): FrameData {
    const sim = this.need();
    return { ...sim.frame(), hash: sim.stateHash() };
  }
}

/** Text of anything thrown (wasm throws Error objects built from engine errors). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
