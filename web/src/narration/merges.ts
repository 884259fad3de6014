/**
 * Log-block merges in words: each merge line names its kind and why it had that
 * kind, from what the engine says the log block held (`cause`, `written`, `degree`), and
 * what it did: the pages copied, the blocks erased and their flash time.
 *
 * - switch: the log block holds one logical block's pages in order and complete;
 * - partial: in order but incomplete, so the remaining pages come from the data block;
 * - full: out of order, or a shared log block (FAST's random log blocks, SBAST), or a page
 *   written to the data block since: every valid page is gathered into a new block; a log
 *   block shared by A logical blocks costs A such merges, seed 004 Eq. (3);
 * - NFTL's fold: a replacement block and its primary gathered into a new primary.
 */
import { copyAt, type EngineEvent } from '../engine/events';

type Merge = Extract<EngineEvent, { type: 'merge' }>;

/** A merge result word meaning "nothing of the block stayed valid" (engine NONE). */
const NO_BLOCK = 0xffffffff;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Why the merge had its kind, and what it made of the blocks (no costs). */
export function describeMerge(e: Merge, ppb: number): string {
  const data = e.data_block === null ? null : `data block ${e.data_block}`;
  const result = e.result_block === NO_BLOCK ? null : e.result_block;
  const written = `${e.written} of ${ppb} pages written`;
  const old = data ? `; ${data} is erased` : '';
  switch (e.kind) {
    case 'switch':
      return `Switch merge of logical block ${e.lbn}: log block ${e.log_block} was written in order and complete (${written}), so it simply becomes the data block${old}`;
    case 'partial': {
      const from = data ? `copied from ${data}` : 'left empty (no data block)';
      return `Partial merge of logical block ${e.lbn}: log block ${e.log_block} was written in order but is incomplete (${written}), so the remaining pages were ${from} and it becomes the data block${old}`;
    }
    case 'full':
      break;
  }
  const both = data ? `${data} and log block ${e.log_block}` : `log block ${e.log_block}`;
  const gathered = (from: string) =>
    result === null
      ? `nothing of ${from} was still valid, so no block holds it now`
      : `every valid page of ${from} gathered into new block ${result}`;
  switch (e.cause) {
    case 'fold':
      return `Fold (NFTL) of logical block ${e.lbn}: replacement block ${e.log_block} (${written}) and its primary${data ? ` ${data}` : ''} are folded into a new primary: ${gathered('them')}`;
    case 'shared':
      return `Full merge of logical block ${e.lbn}: log block ${e.log_block} holds pages of ${plural(e.degree, 'logical block')} (association degree A = ${e.degree}), so each is merged on its own; ${gathered(both)}`;
    case 'in_order':
      return `Full merge of logical block ${e.lbn}: log block ${e.log_block} was written in order (${written}), but the scheme merges in full only (seed 004's Eq. (2)); ${gathered(both)}`;
    case 'superseded':
      return `Full merge of logical block ${e.lbn}: log block ${e.log_block} was written in order, but a later write of one of its pages went to the data block, so it cannot be switched in; ${gathered(both)}`;
    default:
      return `Full merge of logical block ${e.lbn}: log block ${e.log_block} holds its pages out of order (${written}), so it cannot become the data block; ${gathered(both)}`;
  }
}

/** What a merge did: its pages copied, blocks erased and flash time (ns). */
export interface MergeWork {
  copies: number;
  erases: number;
  ns: number;
}

/**
 * The work of the merge event at `ops[at]`: the ops since the run's start or the merge
 * before it in the same run (the engine emits a merge's event after its copies and erases).
 */
export function mergeWork(ops: EngineEvent[], at: number): MergeWork {
  let from = at;
  while (
    from > 0 &&
    ops[from - 1].type !== 'gc_start' &&
    ops[from - 1].type !== 'merge' &&
    ops[from - 1].type !== 'request'
  )
    from--;
  const work: MergeWork = { copies: 0, erases: 0, ns: 0 };
  for (let i = from; i < at; i++) {
    const e = ops[i];
    if (copyAt(ops, i)) work.copies++;
    if (e.type === 'erase') work.erases++;
    if ('ns' in e) work.ns += e.ns;
  }
  return work;
}

/** The work of the GC run up to op `at`: every merge of it so far together. */
function runWork(ops: EngineEvent[], at: number): MergeWork {
  const total: MergeWork = { copies: 0, erases: 0, ns: 0 };
  for (let i = at; i >= 0 && ops[i].type !== 'gc_start'; i--) {
    if (ops[i].type !== 'merge') continue;
    const w = mergeWork(ops, i);
    total.copies += w.copies;
    total.erases += w.erases;
    total.ns += w.ns;
  }
  return total;
}

/** Which of the log block's A merges `ops[at]` is (1-based), counting back within its run. */
function ordinal(ops: EngineEvent[], at: number, log: number): number {
  let k = 1;
  for (let i = at - 1; i >= 0 && ops[i].type !== 'gc_start'; i--) {
    const e = ops[i];
    if (e.type === 'merge' && e.log_block === log) k++;
  }
  return k;
}

/** The merge event at `ops[at]` told whole: kind, why, and its copies, erases and time. */
export function narrateMerge(ops: EngineEvent[], at: number, ppb: number, formatNs: (ns: number) => string): string {
  const e = ops[at] as Merge;
  const work = (w: MergeWork) =>
    `${plural(w.copies, 'page copy', 'page copies')}, ${plural(w.erases, 'erase')}, ${formatNs(w.ns)}`;
  const k = ordinal(ops, at, e.log_block);
  const of =
    e.degree > 1
      ? ` (merge ${k} of A = ${e.degree}: FAST's Eq. (3) pays A·(N·(T_read + T_write) + T_erase) + T_erase for the victim)`
      : '';
  // The last of a shared victim's merges also sums the victim's: Eq. (3)'s whole cost.
  const total =
    e.degree > 1 && k === e.degree ? `; the victim's ${e.degree} merges together: ${work(runWork(ops, at))}` : '';
  return `${describeMerge(e, ppb)}${of} — ${work(mergeWork(ops, at))}${total}`;
}

/** Whether the GC run starting at `ops[at]` (a gc_start) reclaims a log block by merging. */
export function runMerges(ops: EngineEvent[], at: number): Merge | null {
  for (let i = at + 1; i < ops.length && ops[i].type !== 'gc_end'; i++) {
    const e = ops[i];
    if (e.type === 'merge') return e;
  }
  return null;
}
