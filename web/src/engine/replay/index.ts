/**
 * The op level in one place. The engine serves whole requests; standing part-way through
 * one, every view reads state replayed here, in the worker, from the state before the
 * request and the request's events up to the op: the page grid (grid.ts) and each shape of
 * an inspection answer (lists, trees). Shapes the events do not change part-way (tables,
 * ranges) stay as they were before the request. A new shape that changes part-way gets a
 * replayer in `SHAPES`, and every view showing that shape follows it.
 */
import type { EngineEvent } from '../events';
import type { Inspection, Structure } from '../inspection';
import { replayList } from './list';
import { followsTreeConvention, replayTree } from './tree';

export { composeAt as replayGrid, type GridState } from './grid';

/** What a replayer may need to know about the scheme (from its spec). */
export interface ReplayContext {
  /** The cache levels of the scheme's spec. */
  cacheLevels: readonly string[];
}

type Replayer<S extends Structure['shape']> = (
  s: Extract<Structure, { shape: S }>,
  ops: EngineEvent[],
  ctx: ReplayContext,
) => Structure;

const SHAPES: { [S in Structure['shape']]: Replayer<S> } = {
  list: (s, ops) => replayList(s, ops),
  // The tree replay knows the CTP → CDP convention; other trees stay as before the request.
  tree: (s, ops, ctx) => (followsTreeConvention(ctx.cacheLevels) ? { ...s, root: replayTree(s.root, ops) } : s),
  table: (s) => s,
  ranges: (s) => s,
};

/** The answer `before` (taken before the request) with the request's first ops applied. */
export function replayInspection(before: Inspection, ops: EngineEvent[], ctx: ReplayContext): Inspection {
  const structures = before.structures.map((s) => (SHAPES[s.shape] as Replayer<typeof s.shape>)(s as never, ops, ctx));
  return { ...before, structures, replayed: true };
}
