/**
 * Narration lines for the operations of a GTD → CTP → CDP tree (treeOps.ts): a CTP load, a
 * CDP insert, the prune of a caching group, a sequential bypass, each told as one line with
 * its cost: "RAM x µs, flash y µs, LRU z µs" when the engine sent its RAM / LRU charges (the
 * binary channel's cost records), the flash time alone otherwise.
 */
import type { EngineEvent } from '../engine/events';
import type { TreeOp } from './treeOps';

/** The operation's cost in words (`fmt`: ns to "25 µs"), or '' when it cost nothing known. */
export function treeCost(o: TreeOp, fmt: (ns: number) => string): string {
  if (o.ramNs === undefined && o.lruNs === undefined) return o.ns > 0 ? fmt(o.ns) : '';
  return `RAM ${fmt(o.ramNs ?? 0)}, flash ${fmt(o.ns)}, LRU ${fmt(o.lruNs ?? 0)}`;
}

const where = (e: EngineEvent | undefined) =>
  e && 'block' in e && 'page' in e ? `block ${e.block}, page ${e.page}` : undefined;

/** The CTP the request reached last before op `i` (the group a CDP goes under). */
function ctpBefore(ops: EngineEvent[], i: number): number | undefined {
  for (let k = i - 1; k >= 0; k--) {
    const e = ops[k];
    if ((e.type === 'cache_hit' || e.type === 'cache_insert') && e.level === 'translation_page') return e.key;
  }
  return undefined;
}

const list = (lpns: number[]) =>
  lpns.length > 6 ? `${lpns.slice(0, 6).join(', ')} and ${lpns.length - 6} more` : lpns.join(', ');

/** One line of words for tree operation `o` of a request with events `ops` (without its cost). */
export function treeLine(o: TreeOp, ops: EngineEvent[]): string {
  const range = ops.slice(o.first, o.last + 1);
  switch (o.op) {
    case 'ctp-load': {
      const at = where(range.find((e) => e.type === 'flash_read'));
      return `CTP load: translation page ${o.t}${at ? ` read from ${at}` : ' (not on flash yet)'} and hung under the GTD as a CTP`;
    }
    case 'cdp-insert': {
      const t = ctpBefore(ops, o.first);
      const at = where(range.find((e) => e.type === 'flash_read'));
      const under = t === undefined ? '' : ` under CTP ${t}`;
      return `CDP insert: LPN ${o.lpn} buffered in RAM${under}${at ? `; its old page read in from ${at} and invalidated` : ''}`;
    }
    case 'prune': {
      const s = o.cdps.length === 1 ? '' : 's';
      const flushed = o.cdps.length > 0 ? `dirty CDP${s} LPN ${list(o.cdps)} programmed to flash` : 'no CDPs';
      if (!o.ctpLeft) return `Prune (least recently used): ${flushed}; their CTP stays in RAM`;
      const ctp = o.ctpWritten ? 'then the dirty CTP written back' : 'then the clean CTP dropped';
      return `Prune of caching group CTP ${o.t} (least recently used): ${flushed}, ${ctp}; the branch leaves RAM`;
    }
    case 'bypass': {
      const at = where(range.find((e) => e.type === 'flash_program'));
      return `Bypass (sequential request): LPN ${o.lpn} written straight to ${at ?? 'flash'}, not through RAM`;
    }
  }
}
