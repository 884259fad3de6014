/**
 * Frames between the worker and the page, sent as changes: one byte per page is 16.7 MB a
 * frame on the paper's device (262,144 blocks x 64 pages), and a fresh buffer of that size
 * every frame kept the page's garbage collector busy and made the block grid compare every
 * page to find what to repaint (the 50 ms frame budget). The worker sends a simulation's
 * first frame whole and after that only the blocks whose pages changed since the frame it
 * sent before; the page keeps one page-state array per simulation and updates it in place.
 *
 * This is the transport only (the worker's postMessage and SimClient): SimCore, the Node
 * tests' CoreClient and the views see whole frames. Both ends count each simulation's
 * frames, so a change list applied to anything but the frame it was made from is an error,
 * never a silently wrong grid.
 */
import { type FrameData, type FromWorker, type SimId, frameTransfer } from './protocol';

/** The pages of the blocks that changed since frame `base` (states: `pagesPerBlock` a block, in `blocks` order). */
export interface PageDelta {
  base: number;
  pagesPerBlock: number;
  blocks: Uint32Array;
  states: Uint8Array;
}

/** A frame on the wire: whole, or with `pageDelta` and an empty `pageStates`. */
export type WireFrame = FrameData & { pageDelta?: PageDelta };

/** The worker's side: the last page states sent for each simulation. */
export class FrameSender {
  private readonly last = new Map<SimId, { states: Uint8Array; seq: number; pagesPerBlock: number }>();

  /**
   * The reply to post for simulation `sim`, and its transfer list: a load's frame goes
   * whole (and starts the count), a view's frame as a change list against the last frame
   * sent for `sim`.
   */
  send(reply: FromWorker, transfer: ArrayBuffer[], sim: SimId): [FromWorker, ArrayBuffer[]] {
    if (reply.type === 'dropped') this.last.delete(sim);
    if (reply.type === 'loaded') {
      const states = reply.view.frame.pageStates.slice();
      this.last.set(sim, { states, seq: 0, pagesPerBlock: reply.info.pagesPerBlock });
    }
    const prev = this.last.get(sim);
    if (reply.type !== 'view' || !prev || prev.states.length !== reply.view.frame.pageStates.length) return [reply, transfer];
    const frame = reply.view.frame;
    const pageDelta = diffPages(prev.states, frame.pageStates, prev.pagesPerBlock, prev.seq);
    prev.seq++;
    const wire: WireFrame = { ...frame, pageStates: new Uint8Array(0), pageDelta };
    const out: FromWorker = { ...reply, view: { ...reply.view, frame: wire } };
    return [out, [...frameTransfer(wire), pageDelta.blocks.buffer as ArrayBuffer, pageDelta.states.buffer as ArrayBuffer]];
  }
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

/** The page's side: each simulation's page states, updated in place by change lists. */
export class FrameReceiver {
  private readonly states = new Map<SimId, { states: Uint8Array; seq: number }>();

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
      this.states.set(sim, { states: frame.pageStates, seq: 0 });
      return { ...reply, view: { ...reply.view, frame: { ...frame, seq: 0 } } };
    }
    const held = this.states.get(sim);
    if (!held || held.seq !== pageDelta.base) throw new Error(`frame changes for simulation ${sim} are against frame ${pageDelta.base}, but the page holds ${held ? `frame ${held.seq}` : 'none'}`);
    applyPages(held.states, pageDelta);
    held.seq++;
    const whole: FrameData = { ...frame, pageStates: held.states, seq: held.seq, changes: { since: pageDelta.base, blocks: pageDelta.blocks } };
    return { ...reply, view: { ...reply.view, frame: whole } };
  }
}

/** Writes the changed blocks' pages into `states`. */
export function applyPages(states: Uint8Array, d: PageDelta) {
  const ppb = d.pagesPerBlock;
  for (let i = 0; i < d.blocks.length; i++) states.set(d.states.subarray(i * ppb, (i + 1) * ppb), d.blocks[i] * ppb);
}
