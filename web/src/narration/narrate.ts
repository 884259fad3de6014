/**
 * Plain-words narration of engine events: one line per operation, with its simulated cost.
 * A few operations that only make sense together are told as one line (a cache miss and
 * the translation-page read it causes; a GC copy's read, program and invalidation; a write
 * and the invalidation of the copy it supersedes). Each line remembers the range of events
 * it covers, so clicking it can move the timeline there. Words for RAM structures come
 * from the scheme's notes ("CMT" for DFTL's entry cache), so new schemes need no code here.
 */
import type { CacheLevel, EngineEvent, Purpose, RequestEvent, RequestTrace } from '../engine/events';

/** What a line is about, for the log's filter. */
export type LineKind = 'data' | 'mapping' | 'gc' | 'merge';

/** One narration line. */
export interface NarrationLine {
  /** First and last op (indices into the request's ops) the line covers. */
  first: number;
  last: number;
  kind: LineKind;
  text: string;
  /** Simulated flash time of the covered ops (ns); 0 when they cost nothing on flash. */
  ns: number;
}

/** Names a scheme gives its RAM structures (e.g. `{ entry: 'CMT' }`). */
export type Vocabulary = Partial<Record<CacheLevel, string>>;

/** The scheme's names for its caches (DFTL's entry cache is the CMT), from its engine spec. */
export function cacheVocabulary(spec: { caches: { level: string; name: string }[] } | undefined): Vocabulary {
  return Object.fromEntries((spec?.caches ?? []).map((c) => [c.level, c.name])) as Vocabulary;
}

const LEVEL_NAMES: Record<CacheLevel, string> = {
  entry: 'mapping cache',
  translation_page: 'translation-page cache',
  data_page: 'data buffer',
  ghost: 'ghost cache',
  block_map: 'block-map cache',
  recency: 'recency cache',
  frequency: 'frequency cache',
  sram: 'SRAM',
  dram: 'DRAM',
};

/** The scheme's name for a cache level, or a generic one ("mapping cache"). */
export function levelName(level: CacheLevel, vocab: Vocabulary = {}): string {
  return vocab[level] ?? LEVEL_NAMES[level] ?? level.replace(/_/g, ' ');
}

/** Simulated time in words: "25 µs", "1.2 ms". */
export function formatNs(ns: number): string {
  const us = ns / 1000;
  if (us >= 10_000) return `${(us / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`;
  return `${us.toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`;
}

/** "block 3, page 7" for a physical page. */
export function at(block: number, page: number): string {
  return `block ${block}, page ${page}`;
}

function ppnAt(ppn: number, ppb: number): string {
  return at(Math.floor(ppn / ppb), ppn % ppb);
}

/** What a cache key names at each level ("LPN 5", "translation page 2"). */
export function keyLabel(level: CacheLevel, key: number): string {
  if (level === 'translation_page' || level === 'recency' || level === 'frequency') return `translation page ${key}`;
  if (level === 'block_map') return `logical block ${key}`;
  if (level === 'sram' || level === 'dram') return `metadata page ${key}`;
  return `LPN ${key}`;
}

/** What a programmed or read page holds, in words. */
function content(purpose: Purpose, key: number, kind?: string): string {
  if (kind === 'Dtp') return `dynamic translation page ${key}`;
  return kind === 'Translation' || (kind === undefined && purpose === 'translation') ? `translation page ${key}` : `LPN ${key}`;
}

const cost = (ns: number) => ` — ${formatNs(ns)}`;

function kindOf(e: EngineEvent): LineKind {
  switch (e.type) {
    case 'flash_read':
    case 'oob_read':
    case 'flash_program':
    case 'erase':
      return e.purpose === 'translation' ? 'mapping' : e.purpose === 'gc' ? 'gc' : e.purpose === 'merge' ? 'merge' : 'data';
    case 'gc_start':
    case 'gc_end':
      return 'gc';
    case 'merge':
      return 'merge';
    case 'cache_hit':
    case 'cache_miss':
    case 'cache_insert':
    case 'cache_evict':
      return e.level === 'data_page' ? 'data' : 'mapping';
    default:
      return 'data';
  }
}

/** One event on its own, in words. */
export function describeEvent(e: EngineEvent, ppb: number, vocab: Vocabulary = {}): string {
  const level = (l: CacheLevel) => levelName(l, vocab);
  switch (e.type) {
    case 'request':
      return describeRequest(e);
    case 'flash_read': {
      const who = e.purpose === 'gc' ? 'GC reads' : e.purpose === 'merge' ? 'Merge reads' : 'Read';
      return `${who} ${content(e.purpose, e.key)} from ${at(e.block, e.page)}${cost(e.ns)}`;
    }
    case 'oob_read':
      return `Read the spare area of ${at(e.block, e.page)} (${e.purpose})${cost(e.ns)}`;
    case 'flash_program': {
      const where = e.purpose === 'log' || e.purpose === 'buffer' ? `${e.purpose} ${at(e.block, e.page)}` : at(e.block, e.page);
      const who = e.purpose === 'gc' ? 'GC writes' : e.purpose === 'merge' ? 'Merge writes' : 'Write';
      return `${who} ${content(e.purpose, e.key, e.kind)} (version ${e.version}) to ${where}${cost(e.ns)}`;
    }
    case 'invalidate':
      return `${cap(ppnAt(e.ppn, ppb))} is now invalid (its data was superseded)`;
    case 'erase': {
      const why = e.purpose === 'gc' ? ' to reclaim it' : e.purpose === 'merge' ? ' after the merge' : '';
      return `Erase block ${e.block}${why}${cost(e.ns)}`;
    }
    case 'gc_start':
      return `Garbage collection: free blocks ran short; victim block ${e.victim} has ${e.valid} valid page${e.valid === 1 ? '' : 's'} to move`;
    case 'gc_end':
      return `GC done: block ${e.victim} is free again`;
    case 'cache_hit':
      return `${cap(level(e.level))} hit for ${keyLabel(e.level, e.key)}`;
    case 'cache_miss':
      return `${cap(level(e.level))} miss for ${keyLabel(e.level, e.key)}`;
    case 'cache_insert':
      return `Load ${keyLabel(e.level, e.key)} into the ${level(e.level)}`;
    case 'cache_evict':
      return `Evict ${keyLabel(e.level, e.key)} from the ${level(e.level)}${e.dirty ? ' — dirty, so its translation page must be rewritten' : ' — clean, simply dropped'}`;
    case 'merge': {
      const data = e.data_block === null ? 'no data block' : `data block ${e.data_block}`;
      return {
        switch: `Switch merge of logical block ${e.lbn}: log block ${e.log_block} becomes its data block (${data})`,
        partial: `Partial merge of logical block ${e.lbn}: copy the missing pages into log block ${e.log_block}, then switch (${data})`,
        full: `Full merge of logical block ${e.lbn}: copy every valid page of ${data} and log block ${e.log_block} to block ${e.result_block}, erase the old ones`,
      }[e.kind];
    }
    default: {
      const { type, ...rest } = e as { type: string };
      return `${type.replace(/_/g, ' ')} ${JSON.stringify(rest)}`;
    }
  }
}

/** The request header: "write LPN 43–44 (2 pages)". */
export function describeRequest(r: RequestEvent): string {
  const span = r.pages > 1 ? `LPN ${r.lpn}–${r.lpn + r.pages - 1} (${r.pages} pages)` : `LPN ${r.lpn}`;
  return `${r.op} ${span}`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Narrates one request's operations, folding the pairs that belong together. */
export function narrate(trace: RequestTrace, ppb: number, vocab: Vocabulary = {}): NarrationLine[] {
  const ops = trace.ops;
  const lines: NarrationLine[] = [];
  for (let i = 0; i < ops.length; i++) {
    const e = ops[i];
    const next = ops[i + 1];
    const line = (last: number, text: string, ns: number, kind = kindOf(e)) => {
      lines.push({ first: i, last, kind, text, ns });
      i = last;
    };
    if (e.type === 'cache_miss' && next?.type === 'flash_read' && next.purpose === 'translation') {
      const name = cap(levelName(e.level, vocab));
      line(i + 1, `${name} miss for ${keyLabel(e.level, e.key)}: read translation page ${next.key} from ${at(next.block, next.page)}${cost(next.ns)}`, next.ns, 'mapping');
    } else if (e.type === 'flash_read' && e.purpose === 'gc' && next?.type === 'flash_program' && next.purpose === 'gc') {
      const inv = ops[i + 2];
      const last = inv?.type === 'invalidate' && inv.ppn === e.ppn ? i + 2 : i + 1;
      const what = content('gc', next.key, next.kind);
      line(last, `GC copies ${what} from ${at(e.block, e.page)} to ${at(next.block, next.page)}${cost(e.ns + next.ns)}`, e.ns + next.ns);
    } else if (e.type === 'flash_program' && e.purpose !== 'gc' && next?.type === 'invalidate' && next.ppn !== e.ppn) {
      const text = describeEvent(e, ppb, vocab).replace(/ — [^—]*$/, '');
      line(i + 1, `${text}; the old copy at ${ppnAt(next.ppn, ppb)} is now invalid${cost(e.ns)}`, e.ns);
    } else {
      line(i, describeEvent(e, ppb, vocab), 'ns' in e ? e.ns : 0);
    }
  }
  return lines;
}
