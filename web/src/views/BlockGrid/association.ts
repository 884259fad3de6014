/**
 * Log-block ↔ data-block association for the block grid: which blocks the block
 * under the pointer is paired with, from the engine's RAM inspection (the log-block schemes'
 * `log-data-blocks` table: one row per log block and data block it serves), and the list of
 * every block the grid marks, in words, for screen readers and tests.
 */
import type { Inspection } from '../../engine/inspection';
import type { GridHighlight } from './highlight';

/** The inspection table pairing log (or replacement) blocks with their data blocks. */
export const ASSOCIATION_TABLE = 'log-data-blocks';

/** A hovered block and the blocks associated with it. */
export interface Association {
  block: number;
  /** 'log': the hovered block is a log block and `partners` its data blocks; 'data': the reverse. */
  role: 'log' | 'data';
  partners: number[];
}

/** What `block` is associated with in `inspection` (null: nothing, or no such table). */
export function associationOf(inspection: Inspection | undefined, block: number): Association | null {
  const table = inspection?.structures.find((s) => s.id === ASSOCIATION_TABLE);
  if (!table || table.shape !== 'table') return null;
  const asLog = table.rows.filter((r) => r.key === block && r.value !== null).map((r) => r.value as number);
  if (table.rows.some((r) => r.key === block)) return { block, role: 'log', partners: [...new Set(asLog)] };
  const asData = table.rows.filter((r) => r.value === block).map((r) => r.key);
  return asData.length ? { block, role: 'data', partners: [...new Set(asData)] } : null;
}

/** One block the grid marks, and why. */
export interface BlockMark {
  block: number;
  mark: 'victim' | 'erased' | 'merge-log' | 'merge-data' | 'merge-result' | 'hover' | 'associated';
  text: string;
}

/** Every block the overlay marks, in words (the grid's accessible list of marked blocks). */
export function blockMarks(hl: GridHighlight | null, assoc: Association | null): BlockMark[] {
  const out: BlockMark[] = [];
  if (hl) {
    if (hl.victim >= 0)
      out.push({
        block: hl.victim,
        mark: 'victim',
        text: `block ${hl.victim}: ${hl.victimActive ? 'being reclaimed' : 'last GC victim'}`,
      });
    for (const m of hl.merges) {
      const what = `${m.kind} merge of logical block ${m.lbn}`;
      out.push({ block: m.log, mark: 'merge-log', text: `block ${m.log}: log block of the ${what}` });
      if (m.data !== null)
        out.push({ block: m.data, mark: 'merge-data', text: `block ${m.data}: data block of the ${what}` });
      if (m.result !== null && m.result !== m.log)
        out.push({ block: m.result, mark: 'merge-result', text: `block ${m.result}: new data block of the ${what}` });
    }
    for (const b of hl.erased) out.push({ block: b, mark: 'erased', text: `block ${b}: erased` });
  }
  if (assoc) {
    out.push({
      block: assoc.block,
      mark: 'hover',
      text: `block ${assoc.block}: ${assoc.role === 'log' ? 'log block under the pointer' : 'data block under the pointer'}`,
    });
    for (const p of assoc.partners) {
      out.push({
        block: p,
        mark: 'associated',
        text: `block ${p}: ${assoc.role === 'log' ? 'data block it serves' : 'its log block'}`,
      });
    }
  }
  return out;
}
