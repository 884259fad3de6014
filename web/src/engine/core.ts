/**
 * SimCore answers protocol messages with a wasm Simulation. It knows nothing about
 * workers, so the worker, a main-thread fallback and Node tests all share it. Long work
 * comes back as a generator of progress reports (see `run`); `handle` runs it to the end.
 */
import {
  MAIN_SIM,
  type Catalog,
  type FromWorker,
  type PrefillSummary,
  type SchemeSpec,
  type Validation,
  type Vocab,
  type SchemeInfo,
  type SimId,
  type SimInfo,
  type SweepCall,
  type ToWorker,
  type TracePreview,
  type ViewData,
} from './protocol';
import { errorMessage } from './errors';
import { PAGE_STATE } from './codes';
import { framePool } from './bufferPool';
import { frameTransfer } from './protocol';
import { Session, type Progress } from './session';
import type { WasmApi, WasmSimulation, WasmTraceLoader } from './wasmApi';

export type { WasmApi, WasmSimulation } from './wasmApi';

/** A reply and the buffers to transfer with it. */
export type Reply = [FromWorker, ArrayBuffer[]];

export class SimCore {
  /** The loaded simulations by id (the app's own is MAIN_SIM). */
  private sessions = new Map<SimId, Session>();
  private loader: { wasm: WasmTraceLoader; name: string } | null = null;
  /** Set by `cancel` for work outside a session (building a simulation). */
  private cancelled = false;
  /**
   * Why the wasm instance trapped, once it has. A trap can leave Rust state half-updated
   * (wasm-bindgen then reports "recursive use of an object"), so nothing may run on it again.
   */
  private crashed: string | null = null;

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
    if (this.crashed) return [{ type: 'error', id: msg.id, message: this.crashed, fatal: true }, []];
    try {
      this.cancelled = false;
      for (const s of this.sessions.values()) s.cancelled = false;
      return yield* this.dispatch(msg);
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError))
        return [{ type: 'error', id: msg.id, message: errorMessage(e) }, []];
      this.crashed = `The engine crashed (${errorMessage(e)}).`;
      return [{ type: 'error', id: msg.id, message: this.crashed, fatal: true }, []];
    }
  }

  /** Stops the long work in progress at its next chunk boundary. */
  cancel() {
    this.cancelled = true;
    for (const s of this.sessions.values()) s.cancelled = true;
  }

  private *dispatch(msg: ToWorker): Generator<Progress, Reply, void> {
    const id = msg.id;
    const simId = msg.sim ?? MAIN_SIM;
    switch (msg.type) {
      case 'load': {
        const config = JSON.stringify({ ...JSON.parse(msg.configJson), record_events: true });
        const sim = new this.wasm.Simulation(config, new Uint8Array(msg.trace), msg.traceName, msg.format ?? null);
        return this.start(id, simId, sim, msg.traceName);
      }
      case 'traceOpen': {
        this.loader?.wasm.free();
        this.loader = null;
        const wasm = new this.wasm.TraceLoader(msg.name, msg.format ?? null, msg.optionsJson);
        this.loader = { wasm, name: msg.name };
        return [{ type: 'traceFed', id, progress: { bytes: 0, lines: 0, requests: 0, done: false } }, []];
      }
      case 'traceChunk': {
        const progress = JSON.parse(this.needLoader().wasm.feed(new Uint8Array(msg.chunk)));
        return [{ type: 'traceFed', id, progress }, []];
      }
      case 'traceClose': {
        const loader = this.needLoader();
        const parse = { name: loader.name, ...JSON.parse(loader.wasm.finish()) };
        return [{ type: 'traceParsed', id, parse }, []];
      }
      case 'tracePreview': {
        const json = this.wasm.previewTraceJson(
          new Uint8Array(msg.sample),
          msg.complete,
          msg.format ?? null,
          msg.optionsJson,
          msg.maxLines,
        );
        return [{ type: 'tracePreviewed', id, preview: JSON.parse(json) as TracePreview }, []];
      }
      case 'loadParsed': {
        const parsed = JSON.parse(msg.configJson) as Record<string, unknown>;
        // Building a big device, then reading out its views, take seconds each in one call
        // (about 1 s and 2 s at 19 M pages): say what is being done first.
        const pages = devicePages(this.wasm, parsed).toLocaleString('en-US');
        yield { label: `Building a device of ${pages} pages`, done: 0, total: 0 };
        const config = JSON.stringify({ ...parsed, record_events: true });
        const sim = this.wasm.Simulation.fromLoader(config, this.needLoader().wasm);
        // Building takes a while on a big trace, and a Stop pressed meanwhile must still
        // leave the old simulation loaded: look at the cancel flag before replacing it.
        yield {
          label: `Preparing ${sim.total().toLocaleString('en-US')} requests on ${pages} pages`,
          done: 0,
          total: 0,
        };
        if (this.cancelled) {
          sim.free();
          return [{ type: 'error', id, message: 'Loading cancelled.', cancelled: true }, []];
        }
        return this.start(id, simId, sim, msg.traceName);
      }
      case 'run': {
        const sim = this.wasm.Simulation.fromLoader(fastConfig(msg.configJson), this.needLoader().wasm);
        try {
          return yield* this.runToEnd(id, sim, msg.overTime ?? []);
        } finally {
          sim.free();
        }
      }
      case 'step':
        return viewReply(id, this.need(simId).step(msg.requests, msg.budgetMs, msg.hash ?? false));
      case 'stepOp':
        return viewReply(id, yield* this.need(simId).stepOp(msg.delta));
      case 'back':
        return viewReply(id, yield* this.need(simId).back(msg.requests));
      case 'seek':
        return viewReply(id, yield* this.need(simId).seek(msg.request, msg.op ?? 0));
      case 'jump':
        return viewReply(id, yield* this.need(simId).jump(msg.what));
      case 'frame':
        return viewReply(id, this.need(simId).refresh());
      case 'metrics':
        return [{ type: 'metrics', id, json: this.need(simId).sim.metricsJson() }, []];
      case 'pageInfo':
        return [{ type: 'pageInfo', id, info: this.need(simId).out.pageInfo(msg.ppn) }, []];
      case 'responses': {
        const series = this.need(simId).out.responses();
        return [
          { type: 'responses', id, series },
          [series.max.buffer, series.argmax.buffer, series.mean.buffer] as ArrayBuffer[],
        ];
      }
      case 'catalog':
        return [{ type: 'catalog', id, catalog: catalog(this.wasm) }, []];
      case 'validate':
        return [
          { type: 'validated', id, result: JSON.parse(this.wasm.validateConfigJson(msg.configJson)) as Validation },
          [],
        ];
      case 'sweep':
        return [{ type: 'sweep', id, json: sweepCall(this.wasm, msg.call) }, []];
      case 'inspect': {
        const session = this.need(simId);
        return [{ type: 'inspection', id, inspection: session.inspect(msg.query), at: session.position() }, []];
      }
      case 'lesson':
        return [{ type: 'lesson', id, json: this.need(simId).sim.lessonJson(msg.query) }, []];
      case 'drop':
        this.sessions.get(simId)?.sim.free();
        this.sessions.delete(simId);
        return [{ type: 'dropped', id }, []];
      case 'cancel':
        this.cancel();
        return [{ type: 'error', id, message: 'cancel has no reply' }, []];
      case 'recycle':
        for (const b of msg.buffers) framePool.give(b);
        return [{ type: 'error', id, message: 'recycle has no reply' }, []];
    }
  }

  /** Makes `sim` the current simulation. Events drive narration, op stepping and the page
   * table, so the configs above always turn them on. */
  private start(id: number, simId: SimId, sim: WasmSimulation, traceName: string): Reply {
    this.sessions.get(simId)?.sim.free();
    this.sessions.delete(simId);
    const facts = JSON.parse(sim.infoJson()) as {
      scheme: string;
      blocks: number;
      pages_per_block: number;
      page_bytes: number;
      spec: SchemeSpec;
      prefill?: PrefillSummary;
      response_bound_us?: number | null;
    };
    const info: SimInfo = {
      total: sim.total(),
      counterNames: this.wasm.counterNames(),
      blocks: facts.blocks,
      pagesPerBlock: facts.pages_per_block,
      scheme: facts.scheme,
      traceName,
      schemes: JSON.parse(this.wasm.schemesJson()) as SchemeInfo[],
      formats: JSON.parse(this.wasm.formatsJson()) as string[],
      spec: facts.spec,
      vocab: JSON.parse(this.wasm.vocabJson()) as Vocab,
      pageBytes: facts.page_bytes,
      prefilled: 0,
      prefill: facts.prefill,
      responseBoundUs: facts.response_bound_us ?? undefined,
    };
    const f = sim.frame();
    // A plain loop: reduce over 19 M pages takes a quarter of a second more.
    let used = 0;
    for (let i = 0; i < f.pageStates.length; i++) if (f.pageStates[i] !== PAGE_STATE.free) used++;
    info.prefilled = used / Math.max(1, f.pageStates.length);
    const session = new Session(sim, info, this.now);
    this.sessions.set(simId, session);
    const view = session.refresh();
    return [{ type: 'loaded', id, info, view }, frameTransfer(view.frame)];
  }

  /**
   * Serves `sim` to its end in slices (so progress is posted and a cancel gets through);
   * with `overTime` paths, reads them at the CLI's points (every total / N requests, and at
   * the end), so the app's readings are the CLI's.
   */
  private *runToEnd(id: number, sim: WasmSimulation, overTime: string[]): Generator<Progress, Reply, void> {
    const total = sim.total();
    const every = overTime.length ? Math.max(1, Math.ceil(total / this.wasm.overTimePoints())) : Infinity;
    const paths = JSON.stringify(overTime);
    const readings: string[] = [];
    while (!sim.done()) {
      yield { label: 'Running', done: sim.cursor(), total };
      if (this.cancelled) return [{ type: 'error', id, message: 'Run cancelled.', cancelled: true }, []];
      const next = Math.min(total, (Math.floor(sim.cursor() / every) + 1) * every);
      sim.stepEngineOnly(Math.min(RUN_SLICE, next - sim.cursor()));
      if (overTime.length && (sim.cursor() === next || sim.done())) readings.push(sim.readingJson(paths));
    }
    const reply: Extract<FromWorker, { type: 'metrics' }> = { type: 'metrics', id, json: sim.metricsJson() };
    if (overTime.length) reply.readings = `[${readings.join(',')}]`;
    return [reply, []];
  }

  private needLoader() {
    if (!this.loader) throw new Error('no trace is being loaded');
    return this.loader;
  }

  private need(simId: SimId): Session {
    const s = this.sessions.get(simId);
    if (!s) throw new Error(simId === MAIN_SIM ? 'no simulation loaded' : `no simulation ${simId} loaded`);
    return s;
  }
}

/** Physical pages of the device `config` describes (fields it leaves out take the defaults). */
function devicePages(wasm: WasmApi, config: Record<string, unknown>): number {
  const device = {
    ...(JSON.parse(wasm.defaultConfigJson()) as { device: object }).device,
    ...(config.device as object | undefined),
  } as { blocks?: unknown; pages_per_block?: unknown };
  return Number(device.blocks) * Number(device.pages_per_block) || 0;
}

/** Requests a headless run serves between progress reports (the CLI steps 4,096 at a time). */
const RUN_SLICE = 4096;

/** A config for a headless run: events off whatever it says (fast mode; the CLI's default). */
function fastConfig(configJson: string): string {
  return JSON.stringify({ ...JSON.parse(configJson), record_events: false });
}

function catalog(wasm: WasmApi): Catalog {
  return {
    configSchema: JSON.parse(wasm.configSchemaJson()),
    defaultConfig: JSON.parse(wasm.defaultConfigJson()),
    presets: JSON.parse(wasm.presetsJson()),
    schemes: JSON.parse(wasm.schemesJson()),
  };
}

function sweepCall(wasm: WasmApi, call: SweepCall): string {
  switch (call.fn) {
    case 'catalog':
      return `{"params":${wasm.sweepParamsJson()},"experiments":${wasm.experimentsJson()}}`;
    case 'expand':
      return wasm.sweepExpandJson(call.baseJson, call.param, call.values, call.schemesJson);
    case 'trace':
      return JSON.stringify(wasm.experimentTraceCsv(call.experiment, call.trace));
    case 'report':
      return wasm.experimentReportJson(call.experiment, call.resultsJson, call.userJson ?? '[]');
    case 'points':
      return wasm.experimentPointsJson(call.experiment, call.footprintBytes);
    case 'runBytes':
      return String(wasm.runBytes(call.configJson, call.requests));
  }
}

function viewReply(id: number, view: ViewData): Reply {
  return [{ type: 'view', id, view }, frameTransfer(view.frame)];
}
