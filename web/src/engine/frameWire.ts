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
import { framePool } from './bufferPool';
import type { FrameData, FromWorker, PageDelta, SimId } from './protocol';

export type { PageDelta } from './protocol';

/** The per-block and per-page arrays of a frame (what a change list updates). */
type Grid = Pick<FrameData, 'pageStates' | 'blockRoles' | 'validCounts' | 'eraseCounts'>;

/** A frame on the wire: whole, or with `pageDelta` in place of the device arrays (pages, roles, valid and erase counts). */
export type WireFrame = FrameData & { pageDelta?: PageDelta };

/**
 * The reply as a value, for a caller that takes SimCore's replies directly (no transport):
 * a frame read as the engine's changes shares its device arrays with the worker's read-out,
 * which the next step updates in place, so they are copied, and its change list's buffer
 * goes back to the pool.
 */
export function wholeFrame(reply: FromWorker): FromWorker {
  if (reply.type !== 'view' && reply.type !== 'loaded') return reply;
  const { read: _read, engineChanges, ...f } = reply.view.frame;
  if (engineChanges) framePool.give(engineChanges.delta.blocks.buffer as ArrayBuffer);
  const frame: FrameData = {
    ...f,
    pageStates: f.pageStates.slice(),
    blockRoles: f.blockRoles.slice(),
    validCounts: f.validCounts.slice(),
    eraseCounts: f.eraseCounts.slice(),
    counters: f.counters.slice(),
  };
  return { ...reply, view: { ...reply.view, frame } };
}

/** The worker's side: the last frame sent for each simulation. */
export class FrameSender {
  private readonly last = new Map<SimId, { grid: Grid; seq: number; pagesPerBlock: number; read?: number }>();
  /** Change lists sent as the engine made them (no comparing in the worker). */
  fromEngine = 0;

  /**
   * The reply to post for simulation `sim`, and its transfer list: a load's frame goes
   * whole (and starts the count), a view's frame as a change list against the last frame
   * sent for `sim`: the engine's own when the frame came with one from the state last sent
   * (full-speed play), else by comparing every block.
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
      this.last.set(sim, { grid, seq: 0, pagesPerBlock: reply.info.pagesPerBlock, read: f.read });
    }
    const prev = this.last.get(sim);
    if (reply.type !== 'view' || !prev || prev.grid.pageStates.length !== reply.view.frame.pageStates.length)
      return [reply, transfer];
    const frame = reply.view.frame;
    const engine = frame.engineChanges;
    let pageDelta: PageDelta;
    if (engine && prev.read !== undefined && engine.since === prev.read) {
      applyChanges(prev.grid, engine.delta);
      pageDelta = { ...engine.delta, base: prev.seq };
      this.fromEngine++;
    } else {
      if (engine) framePool.give(engine.delta.blocks.buffer as ArrayBuffer);
      pageDelta = diffFrame(prev.grid, frame, prev.pagesPerBlock, prev.seq);
    }
    prev.read = frame.read;
    prev.seq++;
    // The device arrays stay behind (the page fills them in from its own): the counters, the
    // labels and the change list's one buffer go.
    const {
      pageStates: _p,
      blockRoles: _r,
      validCounts: _v,
      eraseCounts: _e,
      read: _read,
      engineChanges: _c,
      ...rest
    } = frame;
    const wire = { ...rest, pageDelta } as WireFrame;
    const out: FromWorker = { ...reply, view: { ...reply.view, frame: wire } };
    const moved = [frame.counters.buffer as ArrayBuffer, pageDelta.blocks.buffer as ArrayBuffer];
    if (frame.pageKeys) moved.push(frame.pageKeys.buffer as ArrayBuffer);
    return [out, moved];
  }
}

/**
 * The blocks whose pages, role, valid count or erase count differ between `prev` and
 * `next`, with their values from `next` packed in one buffer (from the frame pool, laid out
 * as the engine's change list); `prev` is brought up to `next` on the way.
 */
export function diffFrame(prev: Grid, next: Grid, pagesPerBlock: number, base: number): PageDelta {
  const ppb = pagesPerBlock;
  const paged = diffPages(prev.pageStates, next.pageStates, ppb, base).blocks;
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
  const bytes = n * (13 + ppb);
  const d = unpackChanges(framePool.take(bytes), bytes, ppb, base);
  changed.forEach((b, k) => {
    d.blocks[k] = b;
    d.valid![k] = prev.validCounts[b] = next.validCounts[b];
    d.erases![k] = prev.eraseCounts[b] = next.eraseCounts[b];
    d.roles![k] = prev.blockRoles[b] = next.blockRoles[b];
    d.states.set(next.pageStates.subarray(b * ppb, (b + 1) * ppb), k * ppb);
  });
  return d;
}

/**
 * A change list packed in the first `bytes` bytes of `buf` (the engine's layout, see
 * `frameChanges`): n block numbers, their valid counts and erase counts (u32), roles (u8),
 * then their pages; `bytes` is n × (13 + pages per block).
 */
export function unpackChanges(buf: ArrayBuffer, bytes: number, pagesPerBlock: number, base = 0): PageDelta {
  const n = bytes / (13 + pagesPerBlock);
  if (!Number.isInteger(n))
    throw new Error(`a change list of ${bytes} bytes is not whole blocks of ${pagesPerBlock} pages`);
  return {
    base,
    pagesPerBlock,
    blocks: new Uint32Array(buf, 0, n),
    valid: new Uint32Array(buf, 4 * n, n),
    erases: new Uint32Array(buf, 8 * n, n),
    roles: new Uint8Array(buf, 12 * n, n),
    states: new Uint8Array(buf, 13 * n, n * pagesPerBlock),
  };
}

/** Writes a change list's blocks (pages, and role, valid count and erase count when it has them) into `grid`. */
export function applyChanges(grid: Grid, d: PageDelta) {
  applyPages(grid.pageStates, d);
  applyBlocks(grid, d);
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

/**
 * Frames the page keeps of each kind before reusing one's counters and change-list copy:
 * a frame's `counters` and `changes.blocks` stay as they came for this many frames after it
 * (the grid reads a frame's change list only while it is the one painted last).
 */
const KEPT = 4;

/** One simulation's frame on the page. */
interface Held {
  grid: Grid;
  seq: number;
  /** Copies of the last frames' counters and changed blocks, reused in turn. */
  counters: Float64Array[];
  blocks: Uint32Array[];
}

/**
 * The page's side: each simulation's frame arrays, updated in place by change lists. The
 * buffers a change list came in are handed back for the worker to reuse (`takeBack`), so
 * steady play allocates no buffer a frame on either side.
 */
export class FrameReceiver {
  private readonly states = new Map<SimId, Held>();
  private back: ArrayBuffer[] = [];

  /** Forgets every simulation (a new worker starts counting from its first frame). */
  reset() {
    this.states.clear();
    this.back = [];
  }

  /** The buffers applied since the last call, to transfer back to the worker. */
  takeBack(): ArrayBuffer[] {
    const out = this.back;
    if (out.length) this.back = [];
    return out;
  }

  /** The reply with a whole frame again (`changes` set when it came as a change list). */
  receive(reply: FromWorker, sim: SimId): FromWorker {
    if (reply.type === 'dropped') this.states.delete(sim);
    if (reply.type !== 'loaded' && reply.type !== 'view') return reply;
    const wire = reply.view.frame as WireFrame;
    const { pageDelta, ...frame } = wire;
    if (!pageDelta) {
      const { pageStates, blockRoles, validCounts, eraseCounts } = frame;
      const grid = { pageStates, blockRoles, validCounts, eraseCounts };
      this.states.set(sim, { grid, seq: 0, counters: [], blocks: [] });
      return { ...reply, view: { ...reply.view, frame: { ...frame, seq: 0 } } };
    }
    const held = this.states.get(sim);
    if (!held || held.seq !== pageDelta.base)
      throw new Error(
        `frame changes for simulation ${sim} are against frame ${pageDelta.base}, but the page holds ${held ? `frame ${held.seq}` : 'none'}`,
      );
    applyChanges(held.grid, pageDelta);
    held.seq++;
    const slot = held.seq % KEPT;
    const counters = keep(held.counters, slot, frame.counters);
    const blocks = keep(held.blocks, slot, pageDelta.blocks);
    this.back.push(pageDelta.blocks.buffer as ArrayBuffer, frame.counters.buffer as ArrayBuffer);
    const whole: FrameData = {
      ...frame,
      ...held.grid,
      counters,
      seq: held.seq,
      changes: { since: pageDelta.base, blocks },
    };
    return { ...reply, view: { ...reply.view, frame: whole } };
  }
}

/** `from` copied into the array kept in `ring[slot]` (grown when too small): a view of its length. */
function keep<A extends Float64Array | Uint32Array>(ring: A[], slot: number, from: A): A {
  let to = ring[slot];
  if (!to || to.length < from.length) {
    const Ctor = from.constructor as new (n: number) => A;
    to = ring[slot] = new Ctor(Math.max(from.length, 2 * (to?.length ?? 0), 16));
  }
  to.set(from);
  return (to.length === from.length ? to : to.subarray(0, from.length)) as A;
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
