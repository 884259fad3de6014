/**
 * What the worker reads out of the engine for the views, apart from where the timeline
 * stands (session.ts): frames, the recorded events (into the page table and the narration
 * tail), request reports, response bins and the frame extras (state hash, cell labels).
 * The hot path of full-speed play runs through `events`, so its decoding lives here.
 */
import { EventCodec } from './eventCodec';
import type { RequestTrace } from './events';
import type { BlockDuty, Inspection } from './inspection';
import { PageTable } from './pageTable';
import type { FrameData, RequestReport, SimInfo } from './protocol';
import { ResponseBins } from './responseBins';
import type { WasmSimulation } from './wasmApi';

/** Devices up to this many pages get cell labels (logical pages) in every frame. */
const LABEL_PAGES = 4096;
/** Devices up to this many pages always get a state hash (it costs ~20 ns a page). */
const HASH_PAGES = 1 << 16;

export class Readout {
  readonly table: PageTable;
  readonly bins: ResponseBins;
  private readonly codec: EventCodec;
  private readonly pages: number;
  /** The page table missed events since the last seed (see reseed). */
  private stale = false;

  constructor(
    private readonly sim: WasmSimulation,
    private readonly info: SimInfo,
  ) {
    this.pages = info.blocks * info.pagesPerBlock;
    this.table = new PageTable(this.pages, info.pagesPerBlock);
    this.bins = new ResponseBins(info.total);
    this.codec = new EventCodec(info.vocab);
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
    const f = this.sim.frame();
    this.table.seed(this.sim.pageTags(), f.pageStates, f.eraseCounts);
    this.stale = false;
  }

  /** What the worker knows about physical page `ppn` (hover text). */
  pageInfo(ppn: number) {
    if (this.stale) this.seedNow();
    return this.table.info(ppn);
  }

  /** The engine's frame at its cursor (no hash yet: `finish` adds it when wanted). */
  capture(): FrameData {
    return { ...this.sim.frame(), hash: '' };
  }

  /**
   * Takes the events recorded since the last call as binary records (the hot channel): the
   * programs and erases update the page table (with `after`, the frame at the engine's
   * cursor), and only the last `keep` requests are decoded, for narration and op stepping.
   */
  events(after: FrameData, keep: number): RequestTrace[] {
    const words = this.sim.takeEvents();
    this.table.ingest(words, after.eraseCounts, this.codec);
    return this.codec.tail(words, keep);
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

  /** The scheme's RAM structures now (engine/inspection.ts); `focus`: a tree node to zoom into. */
  inspect(focus?: string): Inspection {
    return JSON.parse(this.sim.inspectJson(focus)) as Inspection;
  }

  /** What physical `block` does for its logical block now, when the scheme says (engine `Ftl::block_duty`). */
  blockDuty(block: number): BlockDuty | null {
    return (JSON.parse(this.sim.inspectJson(undefined, block)) as Inspection).block ?? null;
  }

  /** Folds response times served since the last call into the bins. */
  responses() {
    const got = this.sim.responses(this.bins.upTo, this.info.total);
    this.bins.fold(got);
    return this.bins.series();
  }
}
