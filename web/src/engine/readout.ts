/**
 * What the worker reads out of the engine for the views, apart from where the timeline
 * stands (session.ts): frames, the recorded events (into the page table and the narration
 * tail), request reports, response bins and the frame extras (state hash, cell labels).
 * The hot path of full-speed play runs through `events`, so its decoding lives here.
 */
import { framePool } from './bufferPool';
import { EventCodec } from './eventCodec';
import { applyChanges, unpackChanges } from './frameWire';
import type { RequestTrace } from './events';
import type { InspectQuery, Inspection } from './inspection';
import { PageTable } from './pageTable';
import type { FrameData, RequestReport, SimInfo } from './protocol';
import { ResponseBins } from './responseBins';
import type { WasmSimulation } from './wasmApi';

/** Devices up to this many pages get cell labels (logical pages) in every frame. */
const LABEL_PAGES = 4096;
/** Devices up to this many pages always get a state hash (it costs ~20 ns a page). */
const HASH_PAGES = 1 << 16;

/** The device arrays of a frame (what a change list updates). */
type Grid = Pick<FrameData, 'pageStates' | 'blockRoles' | 'validCounts' | 'eraseCounts'>;

export class Readout {
  readonly table: PageTable;
  readonly bins: ResponseBins;
  private readonly codec: EventCodec;
  private readonly pages: number;
  /** The page table missed events since the last seed (see reseed). */
  private stale = false;
  /**
   * The engine's device arrays at its last read (`reads` counts them). A whole read shares
   * them with the frame it returns; the first change list after it copies them once, then
   * updates them in place.
   */
  private mirror!: Grid;
  private mirrorOwned = false;
  private reads = 0;
  /** The blocks the events taken since the last read name (the first `touchedCount`), each once. */
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  /** One byte a block: set while the block is in `touched`. */
  private readonly mark: Uint8Array;

  constructor(
    private readonly sim: WasmSimulation,
    private readonly info: SimInfo,
  ) {
    this.pages = info.blocks * info.pagesPerBlock;
    this.table = new PageTable(this.pages, info.pagesPerBlock);
    this.bins = new ResponseBins(info.total);
    this.codec = new EventCodec(info.vocab);
    this.mark = new Uint8Array(info.blocks);
    this.touched = new Uint32Array(info.blocks);
    this.seedNow();
  }

  /**
   * A seek (and a jump's search) drops the events it passes, so the page table misses the
   * programs made meanwhile and labels / hover would go blank: take what every page holds
   * from the engine's tags instead. Backwards too: a page rewritten after the target (its
   * block erased since) holds at the target what no later event says. Devices with labels
   * reseed at once (a few ms); big ones only when a page is asked for (`pageInfo`), since
   * reading every page's tags costs ~30 ms at 524,288 pages, on every step back.
   */
  reseed() {
    this.stale = true;
    if (this.pages <= LABEL_PAGES) this.seedNow();
  }

  private seedNow() {
    const f = this.capture();
    this.table.seed(this.sim.pageTags(), f.pageStates, f.eraseCounts);
    this.stale = false;
  }

  /** What the worker knows about physical page `ppn` (hover text). */
  pageInfo(ppn: number) {
    if (this.stale) this.seedNow();
    return this.table.info(ppn);
  }

  /** The engine's whole frame at its cursor (no hash yet: `finish` adds it when wanted). */
  capture(): FrameData {
    const f = this.sim.frame();
    const { pageStates, blockRoles, validCounts, eraseCounts } = f;
    this.mirror = { pageStates, blockRoles, validCounts, eraseCounts };
    this.mirrorOwned = false;
    this.forgetTouched();
    return { ...f, hash: '', read: ++this.reads };
  }

  /**
   * After serving from where the last read stood: the frame read as the engine's change
   * list (the blocks the events name, and those whose role changed; `engineChanges`, in a
   * pooled buffer), its device arrays this reader's own, and the events as `events` takes
   * them. The frame's arrays are current only until the next read.
   */
  step(keep: number): { frame: FrameData; recent: RequestTrace[] } {
    const words = this.sim.takeEvents();
    this.note(words);
    const since = this.reads;
    const bytes = this.sim.frameChanges(this.touched.subarray(0, this.touchedCount));
    this.forgetTouched();
    const buf = framePool.take(bytes);
    this.sim.copyFrameChanges(new Uint8Array(buf, 0, bytes));
    const delta = unpackChanges(buf, bytes, this.info.pagesPerBlock);
    this.ownMirror();
    applyChanges(this.mirror, delta);
    const n = this.info.counterNames.length;
    const counters = new Float64Array(framePool.take(8 * n), 0, n);
    this.sim.countersInto(counters);
    this.table.ingest(words, this.mirror.eraseCounts, this.codec);
    const frame: FrameData = {
      ...this.mirror,
      counters,
      hash: '',
      read: ++this.reads,
      engineChanges: { since, delta },
    };
    return { frame, recent: this.codec.tail(words, keep) };
  }

  /**
   * Takes the events recorded since the last call as binary records (the hot channel): the
   * programs and erases update the page table (with `after`, the frame at the engine's
   * cursor), and only the last `keep` requests are decoded, for narration and op stepping.
   */
  events(after: FrameData, keep: number): RequestTrace[] {
    const words = this.sim.takeEvents();
    this.table.ingest(words, after.eraseCounts, this.codec);
    this.note(words);
    return this.codec.tail(words, keep);
  }

  /** Adds the blocks `words` touch to those since the last read (extra ones only cost bytes). */
  private note(words: Uint32Array) {
    this.touchedCount = this.codec.touchedBlocks(
      words,
      this.info.pagesPerBlock,
      this.mark,
      this.touched,
      this.touchedCount,
    );
  }

  private forgetTouched() {
    for (let i = 0; i < this.touchedCount; i++) this.mark[this.touched[i]] = 0;
    this.touchedCount = 0;
  }

  /** Copies the mirror away from the frame a whole read shared it with (once per whole read). */
  private ownMirror() {
    if (this.mirrorOwned) return;
    const m = this.mirror;
    this.mirror = {
      pageStates: m.pageStates.slice(),
      blockRoles: m.blockRoles.slice(),
      validCounts: m.validCounts.slice(),
      eraseCounts: m.eraseCounts.slice(),
    };
    this.mirrorOwned = true;
  }

  /** Time report of the last request served (null before the first). */
  report(): RequestReport | null {
    const r = JSON.parse(this.sim.lastRequestJson()) as RequestReport;
    return r.op ? r : null;
  }

  /** Adds the state hash (when asked, or always on small devices) and the cell labels. */
  finish(f: FrameData, hash: boolean): FrameData {
    if (hash || this.pages <= HASH_PAGES) f.hash = this.sim.stateHash();
    if (this.pages <= LABEL_PAGES) f.pageKeys = this.table.keys(f.pageStates, f.eraseCounts);
    return f;
  }

  /** The scheme's answer to a view's question where the engine stands (engine/inspection.ts). */
  inspect(query: InspectQuery): Inspection {
    return JSON.parse(this.sim.inspectJson(JSON.stringify(query))) as Inspection;
  }

  /** Folds response times served since the last call into the bins. */
  responses() {
    const got = this.sim.responses(this.bins.upTo, this.info.total);
    this.bins.fold(got);
    return this.bins.series();
  }
}
