/**
 * Frames between the worker and the page, sent as changes: one byte per page is 16.7 MB a
 * frame on the paper's device (262,144 blocks x 64 pages), and a fresh buffer of that size
 * every frame kept the page's garbage collector busy and made the block grid compare every
 * page to find what to repaint (the frame budget). The worker sends a simulation's
 * first frame whole and after that only the blocks that changed since the frame it sent
 * before (their pages, role, valid count and erase count, packed in one small buffer); the
 * page keeps one set of frame arrays per simulation and updates them in place, so a frame
 * allocates no device-sized buffer on the page's thread.
 *
 * This is the transport only (the worker's postMessage and SimClient): SimCore, the Node
 * tests' CoreClient and the views see whole frames. Both ends count each simulation's
 * frames, so a change list applied to anything but the frame it was made from is an error,
 * never a silently wrong grid.
 */
import type { FrameData, FromWorker, SimId } from './protocol';

/**
 * The blocks that changed since frame `base`: their pages (`pagesPerBlock` states a block,
 * in `blocks` order) and, when sent by FrameSender, their role, valid count and erase count.
 */
export interface PageDelta {
  base: number;
  pagesPerBlock: number;
  blocks: Uint32Array;
  states: Uint8Array;
  roles?: Uint8Array;
  valid?: Uint32Array;
  erases?: Uint32Array;
}

/** The per-block and per-page arrays of a frame (what a change list updates). */
type Grid = Pick<FrameData, 'pageStates' | 'blockRoles' | 'validCounts' | 'eraseCounts'>;

/** A frame on the wire: whole, or with `pageDelta` in place of the device arrays (pages, roles, valid and erase counts). */
export type WireFrame = FrameData & { pageDelta?: PageDelta };

/** The worker's side: the last frame sent for each simulation. */
export class FrameSender {
  private readonly last = new Map<SimId, { grid: Grid; seq: number; pagesPerBlock: number }>();

  /**
   * The reply to post for simulation `sim`, and its transfer list: a load's frame goes
   * whole (and starts the count), a view's frame as a change list against the last frame
   * sent for `sim`.
   */
  send(reply: FromWorker, transfer: ArrayBuffer[], sim: SimId): [FromWorker, ArrayBuffer[]] {
    if (reply.type === 'dropped') this.last.delete(sim);
    if (reply.type === 'loaded') {
      const f = reply.view.frame;
      const grid = {
        pageStates: f.pageStates.slice(),
        blockRoles: f.blockRoles.slice(),
        validCounts: f.validCounts.slice(),
        eraseCounts: f.eraseCounts.slice(),
      };
      this.last.set(sim, { grid, seq: 0, pagesPerBlock: reply.info.pagesPerBlock });
    }
    const prev = this.last.get(sim);
    if (reply.type !== 'view' || !prev || prev.grid.pageStates.length !== reply.view.frame.pageStates.length)
      return [reply, transfer];
    const frame = reply.view.frame;
    const pageDelta = diffFrame(prev.grid, frame, prev.pagesPerBlock, prev.seq, frame.touched);
    prev.seq++;
    // The device arrays stay behind (the page fills them in from its own): the counters, the
    // labels and the change list's one buffer go.
    const { pageStates: _p, blockRoles: _r, validCounts: _v, eraseCounts: _e, touched: _t, ...rest } = frame;
    const wire = { ...rest, pageDelta } as WireFrame;
    const out: FromWorker = { ...reply, view: { ...reply.view, frame: wire } };
    const moved = [frame.counters.buffer as ArrayBuffer, pageDelta.blocks.buffer as ArrayBuffer];
    if (frame.pageKeys) moved.push(frame.pageKeys.buffer as ArrayBuffer);
    return [out, moved];
  }
}

/**
 * The blocks whose pages, role, valid count or erase count differ between `prev` and
 * `next`, with their values from `next` packed in one buffer; `prev` is brought up to
 * `next` on the way. `touched`, when known (the engine's events since `prev`, in increasing
 * order), are the only blocks whose pages can differ: only they are compared, not every page.
 */
export function diffFrame(
  prev: Grid,
  next: Grid,
  pagesPerBlock: number,
  base: number,
  touched?: Uint32Array,
): PageDelta {
  const ppb = pagesPerBlock;
  const paged = touched
    ? changedAmong(prev.pageStates, next.pageStates, ppb, touched)
    : diffPages(prev.pageStates, next.pageStates, ppb, base).blocks;
  const changed: number[] = [];
  let i = 0;
  for (let b = 0; b < next.blockRoles.length; b++) {
    const pages = i < paged.length && paged[i] === b;
    if (pages) i++;
    if (
      pages ||
      prev.blockRoles[b] !== next.blockRoles[b] ||
      prev.validCounts[b] !== next.validCounts[b] ||
      prev.eraseCounts[b] !== next.eraseCounts[b]
    )
      changed.push(b);
  }
  const n = changed.length;
  // One buffer: blocks, valid counts, erase counts (4 bytes each), roles, then the pages.
  const buf = new ArrayBuffer(n * 13 + n * ppb);
  const roles = new Uint8Array(buf, 12 * n, n);
  const valid = new Uint32Array(buf, 4 * n, n);
  const erases = new Uint32Array(buf, 8 * n, n);
  const d: PageDelta = {
    base,
    pagesPerBlock: ppb,
    blocks: new Uint32Array(buf, 0, n),
    states: new Uint8Array(buf, 13 * n, n * ppb),
    roles,
    valid,
    erases,
  };
  changed.forEach((b, k) => {
    d.blocks[k] = b;
    valid[k] = prev.validCounts[b] = next.validCounts[b];
    erases[k] = prev.eraseCounts[b] = next.eraseCounts[b];
    roles[k] = prev.blockRoles[b] = next.blockRoles[b];
    d.states.set(next.pageStates.subarray(b * ppb, (b + 1) * ppb), k * ppb);
  });
  return d;
}

/**
 * The blocks whose pages differ between `prev` and `next`, with their pages from `next`;
 * `prev` is brought up to `next` on the way (one pass, 32-bit compares where blocks allow).
 */
export function diffPages(prev: Uint8Array, next: Uint8Array, pagesPerBlock: number, base: number): PageDelta {
  const ppb = pagesPerBlock;
  const words = ppb % 4 === 0 && prev.byteOffset % 4 === 0 && next.byteOffset % 4 === 0 ? ppb >> 2 : 0;
  const a32 = words ? new Uint32Array(prev.buffer, prev.byteOffset, prev.length >> 2) : null;
  const b32 = words ? new Uint32Array(next.buffer, next.byteOffset, next.length >> 2) : null;
  const changed: number[] = [];
  const take = (b: number) => {
    changed.push(b);
    prev.set(next.subarray(b * ppb, (b + 1) * ppb), b * ppb);
  };
  if (a32 && b32) {
    // One tight scan over the words (most are equal); a difference names its block, which
    // is taken whole, and the scan goes on from the next block.
    const n = a32.length;
    let w = 0;
    for (;;) {
      while (w < n && a32[w] === b32[w]) w++;
      if (w >= n) break;
      const b = Math.floor(w / words);
      take(b);
      w = (b + 1) * words;
    }
  } else {
    for (let i = 0; i < prev.length; i++) {
      if (prev[i] === next[i]) continue;
      const b = Math.floor(i / ppb);
      take(b);
      i = (b + 1) * ppb - 1;
    }
  }
  const states = new Uint8Array(changed.length * ppb);
  changed.forEach((b, i) => states.set(next.subarray(b * ppb, (b + 1) * ppb), i * ppb));
  return { base, pagesPerBlock: ppb, blocks: Uint32Array.from(changed), states };
}

/** Which of `blocks` (increasing) have pages that differ; `prev` takes `next`'s pages for those. */
function changedAmong(prev: Uint8Array, next: Uint8Array, ppb: number, blocks: Uint32Array): Uint32Array {
  const out: number[] = [];
  for (const b of blocks) {
    const from = b * ppb;
    for (let i = from; i < from + ppb; i++) {
      if (prev[i] === next[i]) continue;
      out.push(b);
      prev.set(next.subarray(from, from + ppb), from);
      break;
    }
  }
  return Uint32Array.from(out);
}

/** The page's side: each simulation's frame arrays, updated in place by change lists. */
export class FrameReceiver {
  private readonly states = new Map<SimId, { grid: Grid; seq: number }>();

  /** Forgets every simulation (a new worker starts counting from its first frame). */
  reset() {
    this.states.clear();
  }

  /** The reply with a whole frame again (`changes` set when it came as a change list). */
  receive(reply: FromWorker, sim: SimId): FromWorker {
    if (reply.type === 'dropped') this.states.delete(sim);
    if (reply.type !== 'loaded' && reply.type !== 'view') return reply;
    const wire = reply.view.frame as WireFrame;
    const { pageDelta, ...frame } = wire;
    if (!pageDelta) {
      const { pageStates, blockRoles, validCounts, eraseCounts } = frame;
      this.states.set(sim, { grid: { pageStates, blockRoles, validCounts, eraseCounts }, seq: 0 });
      return { ...reply, view: { ...reply.view, frame: { ...frame, seq: 0 } } };
    }
    const held = this.states.get(sim);
    if (!held || held.seq !== pageDelta.base)
      throw new Error(
        `frame changes for simulation ${sim} are against frame ${pageDelta.base}, but the page holds ${held ? `frame ${held.seq}` : 'none'}`,
      );
    applyPages(held.grid.pageStates, pageDelta);
    applyBlocks(held.grid, pageDelta);
    held.seq++;
    const whole: FrameData = {
      ...frame,
      ...held.grid,
      seq: held.seq,
      changes: { since: pageDelta.base, blocks: pageDelta.blocks },
    };
    return { ...reply, view: { ...reply.view, frame: whole } };
  }
}

/** Writes the changed blocks' role, valid count and erase count into `grid` (when the change list has them). */
function applyBlocks(grid: Grid, d: PageDelta) {
  if (!d.roles || !d.valid || !d.erases) return;
  for (let i = 0; i < d.blocks.length; i++) {
    const b = d.blocks[i];
    grid.blockRoles[b] = d.roles[i];
    grid.validCounts[b] = d.valid[i];
    grid.eraseCounts[b] = d.erases[i];
  }
}

/** Writes the changed blocks' pages into `states`. */
export function applyPages(states: Uint8Array, d: PageDelta) {
  const ppb = d.pagesPerBlock;
  for (let i = 0; i < d.blocks.length; i++) states.set(d.states.subarray(i * ppb, (i + 1) * ppb), d.blocks[i] * ppb);
}
