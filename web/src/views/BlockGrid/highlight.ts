/**
 * What the block grid marks on top of the pages at a timeline position: the GC victim,
 * the operation just applied, GC copies (source → destination) to animate, and erased
 * blocks. Pure, so the test hook reports exactly what the grid draws.
 */
import type { EngineEvent, RequestTrace } from '../../engine/events';
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
}

const NONE: GridHighlight = { victim: -1, victimActive: false, op: null, moves: [], erased: [] };

/** GC copies in `ops[0..end)`: a GC read followed by the GC program of the same key. */
function copies(ops: EngineEvent[], end: number): Move[] {
  const out: Move[] = [];
  for (let i = 0; i + 1 < end; i++) {
    const r = ops[i];
    const w = ops[i + 1];
    if (r.type === 'flash_read' && r.purpose === 'gc' && w.type === 'flash_program' && w.purpose === 'gc' && w.key === r.key) {
      out.push({ from: r.ppn, to: w.ppn });
    }
  }
  return out;
}

/**
 * The highlight at `pos`. `current` is the request in progress (op > 0) or the last one
 * served (op 0); `lastVictim` is the engine's last GC victim (-1 none) for when the request
 * on screen ran no GC.
 */
export function gridHighlight(current: RequestTrace | null, pos: Position, lastVictim: number, ppb: number): GridHighlight {
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
    return { victim, victimActive: active, op: null, moves: copies(ops, ops.length), erased };
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
  return { victim, victimActive: active, op, moves, erased };
}
