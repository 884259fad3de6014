/**
 * `window.__ftl`: a small API for end-to-end tests (and curious users in the console), so
 * tests assert on engine state and on what the views mean rather than on pixels.
 */
import type { EngineEvent } from '../engine/events';
import type { Position } from '../engine/protocol';
import type { PageInfo } from '../engine/pageTable';
import type { Experiment } from '../store/experiment';
import type { SimStore } from '../store/store';
import type { GridHighlight } from '../views/BlockGrid/highlight';
import { cellRect } from '../views/BlockGrid/overlay';
import { gridProbe, paintSummary, resetPaints, type PaintSummary } from '../views/BlockGrid/drawProbe';

/** What `snapshot()` returns. */
export interface FtlSnapshot {
  status: string;
  /** Requests fully served (the timeline position's request). */
  cursor: number;
  pos: Position;
  total: number;
  /** Engine state hash ('' while playing a big device; `refresh()` fills it). */
  hash: string;
  counters: Record<string, number>;
  scheme: string;
  busy: boolean;
}

export interface FtlTestApi {
  snapshot(): FtlSnapshot;
  /** Steps `n` requests; resolves when the frame is in the store. */
  step(n: number): Promise<number>;
  /** One flash operation forwards / backwards. */
  stepOp(): Promise<void>;
  stepBackOp(): Promise<void>;
  /** Back `n` requests. */
  stepBack(n?: number): Promise<void>;
  seek(request: number, op?: number): Promise<void>;
  /** Jumps to the next GC / miss / merge; resolves with whether one was found. */
  jumpTo(what: string): Promise<boolean>;
  /** The request on screen: index and operations. */
  events(): { index: number; ops: EngineEvent[] } | null;
  /** The engine's last GC victim (-1 none). */
  lastGcVictim(): number;
  /** What the worker recorded about physical page `ppn` (kind, key, version). */
  pageInfo(ppn: number): Promise<PageInfo | null>;
  /** What the block grid drew on top of the pages last (victim, current op, moves). */
  highlight(): GridHighlight | null;
  /** Scheme ids the engine implements. */
  schemes(): string[];
  /** Loads another experiment (fields left out keep the current ones). */
  load(experiment: Partial<Experiment>): Promise<void>;
  /** Fetches the frame again with its state hash. */
  refresh(): Promise<void>;
  /** Centre of physical page `ppn`'s cell in the grid canvas (CSS px), for pointer tests. */
  pageCenter(ppn: number): [number, number];
  /** Each block's role code (engine BlockRole) on screen, and pages per block. */
  blockRoles(): { roles: number[]; pagesPerBlock: number };
  /** Block-grid paint times; `resetPaints` starts a new measurement. */
  paintStats(): PaintSummary;
  resetPaints(): void;
}

declare global {
  interface Window {
    __ftl?: FtlTestApi;
  }
}

export function installTestHook(store: SimStore) {
  window.__ftl = {
    snapshot() {
      const s = store.getState();
      const counters: Record<string, number> = {};
      s.info?.counterNames.forEach((n, i) => (counters[n] = s.frame?.counters[i] ?? NaN));
      return {
        status: s.status,
        cursor: s.pos.request,
        pos: s.pos,
        total: s.info?.total ?? 0,
        hash: s.frame?.hash ?? '',
        counters,
        scheme: s.info?.scheme ?? '',
        busy: !!s.busy,
      };
    },
    step: (n) => store.step(n),
    stepOp: async () => void (await store.stepOp(1)),
    stepBackOp: async () => void (await store.stepOp(-1)),
    stepBack: async (n = 1) => void (await store.back(n)),
    seek: async (request, op = 0) => void (await store.seek(request, op)),
    jumpTo: async (what) => (await store.jump(what))?.found ?? false,
    events() {
      const c = store.getState().current;
      return c ? { index: c.index, ops: c.ops } : null;
    },
    lastGcVictim: () => store.counter('last_gc_victim'),
    pageInfo: (ppn) => store.pageInfo(ppn),
    highlight: () => gridProbe().highlight,
    schemes: () => store.getState().info?.schemes.map((s) => s.id) ?? [],
    load: (e) => store.load({ ...store.getState().experiment, ...e }),
    refresh: async () => void (await store.refresh()),
    pageCenter(ppn) {
      const { layout: l, pagesPerBlock } = gridProbe();
      if (!l) return [NaN, NaN];
      const [x, y, size] = cellRect(l, ppn, pagesPerBlock);
      return [x + size / 2, y + size / 2];
    },
    blockRoles() {
      const { frame, info } = store.getState();
      return { roles: frame ? Array.from(frame.blockRoles) : [], pagesPerBlock: info?.pagesPerBlock ?? 1 };
    },
    paintStats: paintSummary,
    resetPaints,
  };
}
