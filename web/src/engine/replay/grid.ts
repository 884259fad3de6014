/**
 * Replays a request's events over the page states before it, to show the device part-way
 * through the request. The engine serves whole requests; "step one flash operation" is
 * built here, from the events, so it needs no engine support and works for every scheme.
 *
 * Page states, valid counts and erase counts come out exact (grid.test.ts checks this
 * against the engine's next frame). Block roles are only known at request boundaries, so
 * a free block that receives a program takes its role from the frame after the request
 * (or, if that frame has it free again, a role guessed from the program's purpose).
 */
import { BLOCK_ROLE as R, PAGE_STATE as S } from '../codes';
import type { EngineEvent, Purpose } from '../events';
import type { FrameData } from '../protocol';

/** The parts of a frame that replay changes. */
export type GridState = Pick<FrameData, 'pageStates' | 'blockRoles' | 'validCounts' | 'eraseCounts'>;

const FREE_ROLE = R.free;
/** The role a free block most likely takes when a program of this purpose opens it. */
const PURPOSE_ROLE: Record<Purpose, number> = {
  data: R.active,
  gc: R.active,
  translation: R.translation,
  log: R.log,
  buffer: R.buffer,
  merge: R.data,
};

/** Applies one event to `s` in place. `after` is the state after the whole request. */
export function applyEvent(s: GridState, e: EngineEvent, pagesPerBlock: number, after?: GridState) {
  switch (e.type) {
    case 'flash_program': {
      if (s.pageStates[e.ppn] !== S.valid) s.validCounts[e.block]++;
      s.pageStates[e.ppn] = S.valid;
      if (s.blockRoles[e.block] === FREE_ROLE) {
        const later = after?.blockRoles[e.block] ?? FREE_ROLE;
        s.blockRoles[e.block] = later !== FREE_ROLE ? later : (PURPOSE_ROLE[e.purpose] ?? R.data);
      }
      break;
    }
    case 'invalidate': {
      if (s.pageStates[e.ppn] === S.valid) {
        s.pageStates[e.ppn] = S.invalid;
        s.validCounts[Math.floor(e.ppn / pagesPerBlock)]--;
      }
      break;
    }
    case 'erase': {
      const first = e.block * pagesPerBlock;
      s.pageStates.fill(S.free, first, first + pagesPerBlock);
      s.validCounts[e.block] = 0;
      s.eraseCounts[e.block]++;
      s.blockRoles[e.block] = FREE_ROLE;
      break;
    }
    default:
      // Reads, cache and GC markers leave the flash array as it is.
      break;
  }
}

/** Copies a grid state (new buffers, so the copy can be transferred). */
export function copyGrid(s: GridState): GridState {
  return {
    pageStates: s.pageStates.slice(),
    blockRoles: s.blockRoles.slice(),
    validCounts: s.validCounts.slice(),
    eraseCounts: s.eraseCounts.slice(),
  };
}

/**
 * The state after the first `k` operations of a request: `before` with `ops[0..k)` applied.
 * With `k === ops.length` it returns a copy of `after` (exact roles at the boundary).
 */
export function composeAt(
  before: GridState,
  after: GridState,
  ops: EngineEvent[],
  k: number,
  pagesPerBlock: number,
): GridState {
  if (k >= ops.length) return copyGrid(after);
  const s = copyGrid(before);
  for (let i = 0; i < k; i++) applyEvent(s, ops[i], pagesPerBlock, after);
  return s;
}
