/**
 * What the block grid marks on top of the pages at a timeline position: the GC victim,
 * the operation just applied, GC and merge copies (source → destination) to animate, erased
 * blocks, and the merges on screen with their data, log and result blocks. Pure, so the
 * test hook and the grid's list of marked blocks report exactly what the grid draws.
 */
import { copyAt, type EngineEvent, type RequestTrace } from '../../engine/events';
import type { Position } from '../../engine/protocol';

/** A GC copy: valid page `from` moved to `to` (physical page numbers). */
export interface Move {
  from: number;
  to: number;
}

export interface GridHighlight {
  /** Block outlined as the GC victim (-1 none). */
  victim: number;
  /** True when that GC belongs to the request on screen (else it is the last GC run). */
  victimActive: boolean;
  /** The operation just applied (op stepping), if it touches a page or block. */
  op: { kind: 'read' | 'program' | 'invalidate' | 'erase'; ppn: number; block: number } | null;
  /** GC copies to animate: the one just applied (op stepping) or all of the request's. */
  moves: Move[];
  /** Blocks erased by what is animated. */
  erased: number[];
  /** Merges on screen: the request's (shown whole) or the one in progress (op stepping). */
  merges: MergeMark[];
}

/** A log-block merge on the grid: the blocks it joins and the block holding the result. */
export interface MergeMark {
  kind: 'switch' | 'partial' | 'full';
  lbn: number;
  /** The logical block's data block before the merge (null: it had none). */
  data: number | null;
  log: number;
  /** The block holding the logical block afterwards (null: nothing of it stayed valid). */
  result: number | null;
}

const NONE: GridHighlight = { victim: -1, victimActive: false, op: null, moves: [], erased: [], merges: [] };
/** A merge's result word when nothing of the block stayed valid (engine NONE). */
const NO_BLOCK = 0xffffffff;

/** GC and merge copies in `ops[0..end)` (see copyAt). */
function copies(ops: EngineEvent[], end: number): Move[] {
  const out: Move[] = [];
  for (let i = 0; i < end; i++) {
    const c = copyAt(ops, i);
    if (c && c.at < end) out.push({ from: c.read.ppn, to: c.program.ppn });
  }
  return out;
}

function mark(e: EngineEvent): MergeMark[] {
  if (e.type !== 'merge') return [];
  const result = e.result_block === NO_BLOCK ? null : e.result_block;
  return [{ kind: e.kind, lbn: e.lbn, data: e.data_block, log: e.log_block, result }];
}

/**
 * The merges of the GC run holding op `at` (its merge events come after its copies, so a
 * merge is shown from the run's start), or the merges applied so far outside one.
 */
function mergesAround(ops: EngineEvent[], at: number): MergeMark[] {
  let start = -1;
  for (let i = at; i >= 0; i--) {
    const e = ops[i];
    if (e.type === 'gc_end' && i < at) break;
    if (e.type === 'gc_start') {
      start = i;
      break;
    }
  }
  if (start < 0) return ops.slice(0, at + 1).flatMap(mark);
  const out: MergeMark[] = [];
  for (let i = start; i < ops.length && ops[i].type !== 'gc_end'; i++) out.push(...mark(ops[i]));
  return out;
}

/**
 * The highlight at `pos`. `current` is the request in progress (op > 0) or the last one
 * served (op 0); `lastVictim` is the engine's last GC victim (-1 none) for when the request
 * on screen ran no GC.
 */
export function gridHighlight(
  current: RequestTrace | null,
  pos: Position,
  lastVictim: number,
  ppb: number,
): GridHighlight {
  if (!current) return { ...NONE, victim: lastVictim };
  const ops = current.ops;
  const applied = pos.op > 0 ? pos.op : ops.length;
  let victim = -1;
  for (let i = 0; i < applied; i++) {
    const e = ops[i];
    if (e.type === 'gc_start') victim = e.victim;
  }
  const active = victim >= 0;
  if (!active) victim = lastVictim;
  if (pos.op === 0) {
    const erased = ops.flatMap((e) => (e.type === 'erase' ? [e.block] : []));
    return {
      victim,
      victimActive: active,
      op: null,
      moves: copies(ops, ops.length),
      erased,
      merges: ops.flatMap(mark),
    };
  }
  const e = ops[applied - 1];
  let op: GridHighlight['op'] = null;
  let moves: Move[] = [];
  let erased: number[] = [];
  if (e.type === 'flash_read' || e.type === 'oob_read') op = { kind: 'read', ppn: e.ppn, block: e.block };
  else if (e.type === 'flash_program') {
    op = { kind: 'program', ppn: e.ppn, block: e.block };
    moves = copies(ops, applied).filter((m) => m.to === e.ppn);
  } else if (e.type === 'invalidate') op = { kind: 'invalidate', ppn: e.ppn, block: Math.floor(e.ppn / ppb) };
  else if (e.type === 'erase') {
    op = { kind: 'erase', ppn: e.block * ppb, block: e.block };
    erased = [e.block];
  }
  return { victim, victimActive: active, op, moves, erased, merges: mergesAround(ops, applied - 1) };
}
