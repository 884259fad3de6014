/**
 * One loaded simulation and the timeline position on it, inside the worker.
 *
 * The engine serves whole requests and steps back by seeking (nearest checkpoint + replay).
 * The session adds the operation level: to stand part-way through request r it keeps the
 * frame before r, serves r, keeps r's events and the frame after, and replays the first k
 * events (replay/grid.ts). Invariant: at op 0 the engine has served `req` requests; at op > 0
 * it has served `req + 1` (request `req` is "open").
 *
 * Moves that may take long (seeks, jumps) are generators that yield progress between
 * chunks, so the worker can report it and take a cancel; tests drive them synchronously.
 */
import { queryKey, type InspectQuery, type Inspection } from './inspection';
import { replayGrid, replayInspection, type ReplayContext } from './replay';
import { stopsAt, type RequestTrace } from './events';
import type { FrameData, Position, RequestReport, SimInfo, ViewData } from './protocol';
import { Readout } from './readout';
import { adapt, type Work } from './work';
import type { WasmSimulation } from './wasmApi';

export type { Progress, Work } from './work';

/** Whether `e` is the engine's heap guard stopping a run ("out of memory: …"). */
function isHostMemory(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('out of memory:');
}

/** Requests stepped between clock checks when working to a time budget. */
const CHUNK = 64;
/** Requests whose events a move reports for narration (full speed shows the last ones). */
const NARRATE_MAX = 40;

interface Open {
  trace: RequestTrace;
  before: FrameData;
  after: FrameData;
  report: RequestReport | null;
  /** Answers before the request, by query key (carried over from its start, or taken when first asked). */
  answersBefore: Map<string, Inspection>;
}

export class Session {
  /** Frames, events, reports and response bins (what the views read). */
  readonly out: Readout;
  /** Set by a cancel message; long work checks it between chunks. */
  cancelled = false;
  private req = 0;
  private op = 0;
  private open: Open | null = null;
  /** Request `req - 1` with its events, when known (op 0). */
  private last: RequestTrace | null = null;
  private lastReport: RequestReport | null = null;
  /**
   * Answers to the views' questions at a request boundary, by query key. The state at a
   * boundary is always the same, so they hold until the boundary changes; opening the
   * request there carries them over as the answers before it (no seeking back for them).
   */
  private answers: { req: number; byQuery: Map<string, Inspection> } = { req: -1, byQuery: new Map() };
  /** What the op-level replay needs to know about the scheme. */
  private readonly replayContext: ReplayContext;
  /** Time the last budgeted step spent reading events out (ms). */
  private readoutMs = 0;

  constructor(
    readonly sim: WasmSimulation,
    readonly info: SimInfo,
    private readonly now: () => number,
  ) {
    this.out = new Readout(sim, info);
    this.replayContext = { cacheLevels: info.spec.caches.map((c) => c.level) };
  }

  /** The current position. */
  position(): Position {
    return { request: this.req, op: this.op, ops: this.op > 0 && this.open ? this.open.trace.ops.length : 0 };
  }

  // ---- moves -------------------------------------------------------------------------------

  /** Serves up to `n` requests within `budgetMs` (finishing an open request counts as one). */
  step(n: number, budgetMs: number, hash: boolean): ViewData {
    const recent: RequestTrace[] = [];
    let stepped = 0;
    let frame: FrameData | null = null;
    if (this.open) {
      recent.push(this.open.trace);
      frame = this.finishOpen();
      stepped = 1;
    }
    const start = this.now();
    // Reading the events out costs time too (about as much as serving at full speed), so
    // the time budget covers both: serving gets what the last read-out left over.
    const serveBudget = Math.max(budgetMs / 4, budgetMs - this.readoutMs);
    let served = 0;
    while (stepped + served < n && !this.sim.done()) {
      try {
        served += this.sim.step(Math.min(CHUNK, n - stepped - served));
      } catch (e) {
        // What earlier chunks served stands when the engine's heap guard stops a run
        // part-way: show it now; the next step reports the error. Any other error is news.
        if (served === 0 || !isHostMemory(e)) throw e;
        break;
      }
      if (this.now() - start >= serveBudget) break;
    }
    if (served > 0) {
      const t = this.now();
      // The engine's change list since its last read, not a whole frame (the read-out
      // keeps the device arrays).
      const read = this.out.step(NARRATE_MAX);
      frame = read.frame;
      const tail = read.recent;
      recent.push(...tail);
      this.req = this.sim.cursor();
      this.last = tail.at(-1) ?? null;
      this.lastReport = this.out.report();
      if (Number.isFinite(budgetMs)) this.readoutMs = this.now() - t;
    }
    return this.view(frame, { stepped: stepped + served, recent }, hash);
  }

  /** One operation forwards or backwards. */
  stepOp(delta: 1 | -1): Work<ViewData> {
    return this.resyncOnError(this.stepOpMoves(delta));
  }

  private *stepOpMoves(delta: 1 | -1): Work<ViewData> {
    if (delta > 0) {
      if (this.open) {
        const trace = this.open.trace;
        this.op++;
        return this.op >= trace.ops.length ? this.view(this.finishOpen(), { recent: [trace] }) : this.view(null);
      }
      if (this.sim.done()) return this.view(null);
      this.enter();
      return this.settle(1, { recent: [this.open!.trace] });
    }
    if (this.op > 1) {
      this.op--;
      return this.view(null);
    }
    if (this.op === 1) return this.view(yield* this.land(this.req));
    if (this.req === 0) return this.view(null);
    yield* this.seekEngine(this.req - 1, 'Stepping back');
    this.req--;
    this.enter();
    return yield* this.settleBack(this.open!.trace.ops.length - 1);
  }

  /** Back `n` requests. */
  back(n: number): Work<ViewData> {
    return this.resyncOnError(this.backMoves(n));
  }

  private *backMoves(n: number): Work<ViewData> {
    return this.view(yield* this.land(Math.max(0, this.open ? this.req - (n - 1) : this.req - n)));
  }

  /** To request `request`, op `op`; a cancelled seek stands where the engine stopped (as land()). */
  seek(request: number, op = 0): Work<ViewData> {
    return this.resyncOnError(this.seekMoves(request, op));
  }

  private *seekMoves(request: number, op = 0): Work<ViewData> {
    const r = Math.max(0, Math.min(this.info.total, Math.floor(request)));
    if (op <= 0 || r >= this.info.total) return this.view(yield* this.land(r));
    yield* this.seekEngine(r, 'Seeking');
    if (this.sim.cursor() !== r) return this.view(yield* this.land(this.sim.cursor()));
    this.req = r;
    this.enter();
    return this.settle(op, {});
  }

  /** To the next operation that stop `what` (a vocabulary stop id: gc, miss, merge…) waits for. */
  jump(what: string): Work<ViewData> {
    return this.resyncOnError(this.jumpMoves(what));
  }

  private *jumpMoves(what: string): Work<ViewData> {
    if (this.open) {
      const ops = this.open.trace.ops;
      for (let j = this.op; j < ops.length; j++) {
        if (stopsAt(ops, j, what)) return this.settle(j + 1, { found: true });
      }
    }
    const origin = this.position();
    if (this.open) this.finishOpen();
    const from = this.sim.cursor();
    const label = this.info.vocab.stops.find((s) => s.id === what)?.label.toLowerCase() ?? what;
    let chunk = 256;
    while (!this.sim.done() && !this.cancelled) {
      const t = this.now();
      const { found } = this.sim.stepUntil(what, chunk);
      this.sim.discardEvents();
      if (found) {
        yield* this.seekEngine(this.sim.cursor() - 1, 'Stepping back');
        this.req = this.sim.cursor();
        this.enter();
        const k = this.open!.trace.ops.findIndex((_, j, ops) => stopsAt(ops, j, what));
        return this.settle(k < 0 ? this.open!.trace.ops.length : k + 1, { found: true });
      }
      chunk = adapt(chunk, this.now() - t);
      yield { label: `Searching: ${label}`, done: this.sim.cursor() - from, total: this.info.total - from };
    }
    const cancelled = this.cancelled;
    this.cancelled = false;
    const back = yield* this.seekMoves(origin.request, origin.op);
    return { ...back, found: false, cancelled };
  }

  /**
   * The scheme's answer to a view's question where the timeline stands. Part-way through a
   * request the engine has served it whole, so the answer from before it is replayed up to
   * the op. The worker keeps answers, never the questions: each view sends its own.
   */
  inspect(query: InspectQuery): Inspection {
    const key = queryKey(query);
    const o = this.open;
    if (o && this.op > 0) {
      // A block's duty is not replayed op by op: it is said as of the end of the open request,
      // where the engine stands (the hover text says so).
      if (query.block !== undefined) return this.out.inspect(query);
      let before = o.answersBefore.get(key);
      // Asked for the first time in this request: go back and take it from before the request.
      if (!before) {
        before = this.inspectAt(this.req, query);
        o.answersBefore.set(key, before);
      }
      return replayInspection(before, o.trace.ops.slice(0, this.op), this.replayContext);
    }
    const here = this.answersHere();
    let answer = here.get(key);
    if (!answer) {
      answer = this.out.inspect(query);
      here.set(key, answer);
    }
    return answer;
  }

  /** A fresh view of where we are (with the state hash). */
  refresh(): ViewData {
    return this.view(null, {}, true);
  }

  // ---- helpers -----------------------------------------------------------------------------

  /**
   * Runs a move; when the engine throws part-way (its heap guard, say), the position is set
   * back to where the engine stands (a request boundary), so the next view is the engine's
   * state and not the one the move left half-made.
   */
  private *resyncOnError(work: Work<ViewData>): Work<ViewData> {
    try {
      return yield* work;
    } catch (e) {
      this.open = null;
      this.op = 0;
      this.last = null;
      this.lastReport = null;
      this.req = this.sim.cursor();
      this.out.reseed();
      throw e;
    }
  }

  /** Answers kept for the boundary the engine stands at (`req` requests served). */
  private answersHere(): Map<string, Inspection> {
    if (this.answers.req !== this.req) this.answers = { req: this.req, byQuery: new Map() };
    return this.answers.byQuery;
  }

  /** The answer at `r` requests served (the engine goes there and back, to r + 1). */
  private inspectAt(r: number, query: InspectQuery): Inspection {
    this.sim.seek(r);
    const i = this.out.inspect(query);
    this.sim.seek(r + 1); // seeking drops the events it records
    return i;
  }

  /** Moves the engine to `target` requests served, discarding events; forward in chunks. */
  private *seekEngine(target: number, label: string): Work<void> {
    const from = this.sim.cursor();
    if (target <= from) {
      this.sim.seek(target);
      return this.out.reseed();
    }
    let chunk = 1024;
    while (this.sim.cursor() < target && !this.cancelled) {
      const t = this.now();
      this.sim.seek(Math.min(target, this.sim.cursor() + chunk));
      chunk = adapt(chunk, this.now() - t);
      if (this.sim.cursor() < target) yield { label, done: this.sim.cursor() - from, total: target - from };
    }
    this.out.reseed();
  }

  /** To op 0 of request `r`, with request r-1's events for narration; returns the frame. */
  private *land(r: number): Work<FrameData | null> {
    this.open = null;
    this.op = 0;
    this.last = null;
    this.lastReport = null;
    let frame: FrameData | null = null;
    if (r === 0) {
      yield* this.seekEngine(0, 'Seeking');
    } else {
      yield* this.seekEngine(r - 1, 'Seeking');
      // A cancelled seek stops short; then stand where it stopped.
      if (this.sim.cursor() === r - 1) {
        this.sim.step(1);
        frame = this.out.capture();
        this.last = this.out.events(frame, 1)[0] ?? null;
        this.lastReport = this.out.report();
      }
    }
    this.req = this.sim.cursor();
    return frame;
  }

  /** Opens request `req` (engine at `req`): keeps the frames around it and its events. */
  private enter() {
    const before = this.out.capture();
    const answersBefore = new Map(this.answersHere());
    this.sim.step(1);
    const after = this.out.capture();
    const trace = this.out.events(after, 1)[0] ?? null;
    if (!trace) throw new Error(`request ${this.req} recorded no events (is record_events off?)`);
    this.open = { trace, before, after, report: this.out.report(), answersBefore };
    this.op = 0;
  }

  /** Stands at op `k` of the open request (or past it, when k covers every op). */
  private settle(k: number, extra: Partial<ViewData>): ViewData {
    const ops = this.open!.trace.ops.length;
    this.op = Math.min(k, ops);
    if (this.op >= ops) return this.view(this.finishOpen(), extra);
    return this.view(null, extra);
  }

  /** Stands at op `k` when arriving from later in the trace (k < 1 lands at the start). */
  private *settleBack(k: number): Work<ViewData> {
    if (k >= 1) return this.settle(k, {});
    return this.view(yield* this.land(this.req));
  }

  /** Closes the open request: the position becomes the boundary after it. */
  private finishOpen(): FrameData {
    const o = this.open!;
    this.open = null;
    this.op = 0;
    this.req++;
    this.last = o.trace;
    this.lastReport = o.report;
    return o.after;
  }

  private view(frame: FrameData | null, extra: Partial<ViewData> = {}, hash = false): ViewData {
    let f: FrameData;
    if (this.open && this.op > 0) {
      const o = this.open;
      const grid = replayGrid(o.before, o.after, o.trace.ops, this.op, this.info.pagesPerBlock);
      f = { ...grid, counters: o.before.counters.slice(), hash: '' };
    } else {
      f = frame ?? this.out.capture();
    }
    this.out.finish(f, hash);
    const current = this.open && this.op > 0 ? this.open.trace : this.last;
    const report = this.open && this.op > 0 ? this.open.report : this.lastReport;
    return {
      frame: f,
      pos: this.position(),
      done: this.sim.done() && !this.open,
      stepped: 0,
      current,
      report,
      recent: [],
      ...extra,
    };
  }
}
