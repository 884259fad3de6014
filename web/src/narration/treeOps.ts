/**
 * A request's events read as operations on a GTD → CTP → CDP tree: a scheme whose RAM holds
 * both cached translation pages (level `translation_page`) and cached data pages
 * (`data_page`) under them (TreeFTL, Tree-PL). The rule follows the cache levels the
 * scheme's spec names, never its id. Each operation keeps the range of events it covers, the
 * flash time they cost, and the RAM and LRU time charged from its first event up to the
 * event after its last (the engine's cost records, folded into the events as `ram_ns` /
 * `lru_ns`). A charge made before an operation's first event (TreeFTL's GTD look-up before
 * a CTP miss) is counted with the event before it, so with the operation before, if any.
 *
 * - **CTP load**: a translation-page miss, the page read from flash, and its insert.
 * - **CDP insert**: a data-page miss, the old copy read in and invalidated, the insert.
 * - **Prune**: a run of flushed CDPs (each programmed, then evicted) and/or the eviction of
 *   their CTP (programmed when dirty): one caching group leaving RAM, whole or data first.
 * - **Bypass**: a data page programmed straight to flash outside a prune (a sequential
 *   request's write-through).
 */
import { followsTreeConvention } from '../engine/replay/tree';
import type { CacheLevel, EngineEvent } from '../engine/events';

/** One tree operation. `first`/`last`: event indices it covers; `ns`: their flash time. */
type TreeOpShape =
  | { op: 'ctp-load'; t: number; first: number; last: number; ns: number }
  | { op: 'cdp-insert'; lpn: number; readIn: boolean; first: number; last: number; ns: number }
  | {
      op: 'prune';
      t: number | null;
      cdps: number[];
      ctpLeft: boolean;
      ctpWritten: boolean;
      first: number;
      last: number;
      ns: number;
    }
  | { op: 'bypass'; lpn: number; first: number; last: number; ns: number };

/** RAM and LRU time (ns) charged over the operation; absent when the events carry none. */
export interface OpCharge {
  ramNs?: number;
  lruNs?: number;
}

export type TreeOp = TreeOpShape & OpCharge;

/** The RAM and LRU time charged after events `a..b` (only the fields that are present). */
function charged(ops: EngineEvent[], a: number, b: number): OpCharge {
  let ram: number | undefined;
  let lru: number | undefined;
  for (const e of ops.slice(a, b + 1)) {
    if (e.ram_ns !== undefined) ram = (ram ?? 0) + e.ram_ns;
    if (e.lru_ns !== undefined) lru = (lru ?? 0) + e.lru_ns;
  }
  if (ram === undefined && lru === undefined) return {};
  return { ramNs: ram ?? 0, lruNs: lru ?? 0 };
}

const CTP: CacheLevel = 'translation_page';
const CDP: CacheLevel = 'data_page';

/** Whether a scheme's caches (spec `caches` levels) form a CTP → CDP tree. */
export const hasTree = followsTreeConvention;

const nsOf = (ops: EngineEvent[], a: number, b: number) =>
  ops.slice(a, b + 1).reduce((s, e) => s + ('ns' in e ? e.ns : 0), 0);
const is = (e: EngineEvent | undefined, type: EngineEvent['type'], level?: CacheLevel): boolean =>
  e?.type === type && (level === undefined || (e as { level?: CacheLevel }).level === level);

/** A flushed CDP at `i`: its program, then (after any GC it caused) its eviction. Returns the eviction's index, or -1. */
function flushedCdp(ops: EngineEvent[], i: number): number {
  const p = ops[i];
  if (p?.type !== 'flash_program' || p.purpose !== 'data') return -1;
  for (let j = i + 1; j < ops.length; j++) {
    const e = ops[j];
    if (e.type === 'cache_evict' && e.level === CDP && e.key === p.key) return j;
    if (e.type === 'flash_program' && e.purpose !== 'gc') return -1;
    if (e.type === 'cache_evict' || e.type === 'cache_insert' || e.type === 'cache_miss' || e.type === 'cache_hit')
      return -1;
  }
  return -1;
}

/** The tree operations among `ops` (one request's events), in order. */
export function treeOps(ops: EngineEvent[]): TreeOp[] {
  return treeShapes(ops).map((o) => ({ ...o, ...charged(ops, o.first, o.last) }));
}

function treeShapes(ops: EngineEvent[]): TreeOpShape[] {
  const out: TreeOpShape[] = [];
  let i = 0;
  while (i < ops.length) {
    const e = ops[i];
    // A prune: flushed CDPs, then maybe the CTP leaving (and being written).
    let j = i;
    const cdps: number[] = [];
    for (let end = flushedCdp(ops, j); end >= 0; end = flushedCdp(ops, j)) {
      cdps.push((ops[end] as { key: number }).key);
      j = end + 1;
      // GC that a flush's allocation ran belongs to the same prune when flushing goes on after it.
      const gcEnd = ops[j]?.type === 'gc_start' ? ops.findIndex((x, k) => k > j && x.type === 'gc_end') : -1;
      if (gcEnd > j && (flushedCdp(ops, gcEnd + 1) >= 0 || is(ops[gcEnd + 1], 'cache_evict', CTP))) j = gcEnd + 1;
    }
    const ctpLeaves = is(ops[j], 'cache_evict', CTP);
    if (cdps.length > 0 || ctpLeaves) {
      let last = j - 1;
      let t: number | null = null;
      let written = false;
      if (ctpLeaves) {
        const ev = ops[j] as Extract<EngineEvent, { type: 'cache_evict' }>;
        t = ev.key;
        last = j;
        const w = ops[j + 1];
        if (ev.dirty && w?.type === 'flash_program' && w.purpose === 'translation' && w.key === t) {
          written = true;
          last = is(ops[j + 2], 'invalidate') ? j + 2 : j + 1;
        }
      }
      out.push({
        op: 'prune',
        t,
        cdps,
        ctpLeft: ctpLeaves,
        ctpWritten: written,
        first: i,
        last,
        ns: nsOf(ops, i, last),
      });
      i = last + 1;
      continue;
    }
    if (is(e, 'cache_miss', CTP) || is(e, 'cache_miss', CDP)) {
      const level = (e as { level: CacheLevel }).level;
      const key = (e as { key: number }).key;
      const ins = ops.findIndex((x, k) => k > i && x.type === 'cache_insert' && x.level === level && x.key === key);
      // Nothing between the miss and the insert but the page's own reads (a prune first is its own op).
      const between = ins > i ? ops.slice(i + 1, ins) : [];
      if (ins > i && between.every((x) => x.type === 'flash_read' || x.type === 'invalidate')) {
        const ns = nsOf(ops, i, ins);
        if (level === CTP) out.push({ op: 'ctp-load', t: key, first: i, last: ins, ns });
        else
          out.push({
            op: 'cdp-insert',
            lpn: key,
            readIn: between.some((x) => x.type === 'flash_read'),
            first: i,
            last: ins,
            ns,
          });
        i = ins + 1;
        continue;
      }
    }
    if (is(e, 'cache_insert', CTP) || is(e, 'cache_insert', CDP)) {
      // After a prune made room: the page's reads sit right before the insert.
      let first = i;
      while (
        first > 0 &&
        (ops[first - 1].type === 'flash_read' || ops[first - 1].type === 'invalidate') &&
        first - 1 > (out.at(-1)?.last ?? -1)
      )
        first--;
      const key = (e as { key: number }).key;
      const ns = nsOf(ops, first, i);
      if (is(e, 'cache_insert', CTP)) out.push({ op: 'ctp-load', t: key, first, last: i, ns });
      else
        out.push({
          op: 'cdp-insert',
          lpn: key,
          readIn: ops.slice(first, i).some((x) => x.type === 'flash_read'),
          first,
          last: i,
          ns,
        });
    } else if (e.type === 'flash_program' && e.purpose === 'data') {
      const last = is(ops[i + 1], 'invalidate') ? i + 1 : i;
      out.push({ op: 'bypass', lpn: e.key, first: i, last, ns: nsOf(ops, i, last) });
      i = last + 1;
      continue;
    }
    i++;
  }
  return out;
}

/** The operation in a few words (the tree view's list of what this request did). */
export function treeOpWords(o: TreeOp): string {
  const s = (k: number) => (k === 1 ? '' : 's');
  switch (o.op) {
    case 'ctp-load':
      return `CTP ${o.t} loaded`;
    case 'cdp-insert':
      return `CDP LPN ${o.lpn} inserted${o.readIn ? ' (old page read in)' : ''}`;
    case 'prune': {
      const cdps = o.cdps.length > 0 ? `${o.cdps.length} CDP${s(o.cdps.length)} flushed` : '';
      if (!o.ctpLeft) return `Prune: ${cdps} (the CTP stays)`;
      return `Prune: CTP ${o.t} left${cdps ? ` with ${cdps}` : ''}${o.ctpWritten ? ', written back' : ''}`;
    }
    case 'bypass':
      return `Bypass: LPN ${o.lpn} straight to flash`;
  }
}
