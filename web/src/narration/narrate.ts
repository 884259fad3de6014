/**
 * Plain-words narration of engine events: one line per operation, with its simulated cost.
 * A few operations that only make sense together are told as one line (a cache miss and
 * the translation-page read it causes; a GC copy's read, program and invalidation; a write
 * and the invalidation of the copy it supersedes). Each line remembers the range of events
 * it covers, so clicking it can move the timeline there. Words for RAM structures come
 * from the scheme's spec ("CMT" for DFTL's entry cache), so new schemes need no code here.
 *
 * Index levels: a cache the spec names "<KIND> index" after a page kind of the engine's
 * vocabulary (HCFTL's "DTP index", kind `dtp`) indexes flash pages of that kind, not cached
 * translation pages: its hit names the page found, its miss the LPN looked up, and the
 * pages it offers are told as pages of that kind ("DTP 3"). The events do not carry the
 * kind of a page read, so it is learned from the request's own events (see `indexPages`).
 */
import {
  copyAt,
  type CacheLevel,
  type EngineEvent,
  type Purpose,
  type RequestEvent,
  type RequestTrace,
} from '../engine/events';
import type { Code } from '../engine/protocol';
import { describeMerge, narrateMerge, runMerges } from './merges';
import { treeCost, treeLine } from './treeNarration';
import { hasTree, treeOps, type TreeOp } from './treeOps';

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

/** A cache level that indexes flash pages of one kind: `short` "DTP", `kind` "Dtp", `label` "dynamic translation page". */
export interface PageIndex {
  short: string;
  kind: string;
  label: string;
}

/**
 * Names a scheme gives its RAM structures (e.g. `{ entry: 'CMT' }`), and which of its
 * levels index pages of a kind (`indexes`).
 */
export type Vocabulary = Partial<Record<CacheLevel, string>> & {
  indexes?: Partial<Record<CacheLevel, PageIndex>>;
  /** The scheme collects in bounded partial steps (a real-time scheme with a response bound). */
  partialGc?: boolean;
};

/** Page kinds every scheme has: never the subject of an index level. */
const PLAIN_KINDS = new Set(['none', 'data', 'translation']);

/**
 * The scheme's names for its caches (DFTL's entry cache is the CMT), from its engine spec;
 * with the engine's page kinds (`vocab.page_kinds`), the levels that index pages of a kind.
 */
export function cacheVocabulary(
  spec: { caches: { level: string; name: string }[] } | undefined,
  pageKinds: Code[] = [],
): Vocabulary {
  const caches = spec?.caches ?? [];
  const vocab = Object.fromEntries(caches.map((c) => [c.level, c.name])) as Vocabulary;
  for (const c of caches) {
    const k = pageKinds.find((k) => !PLAIN_KINDS.has(k.id) && c.name.startsWith(`${k.id.toUpperCase()} index`));
    if (!k) continue;
    const index: PageIndex = {
      short: k.id.toUpperCase(),
      kind: k.id.charAt(0).toUpperCase() + k.id.slice(1),
      label: k.label.toLowerCase(),
    };
    vocab.indexes = { ...vocab.indexes, [c.level]: index };
  }
  return vocab;
}

/** A flash page of an indexed kind, with its key (a DTP's id). */
export type IndexedPage = PageIndex & { key: number };

/**
 * A request's pages of an indexed kind by PPN, and the reads (op indices) of pages the
 * index offered for a lookup (its filter said "maybe") that do not hold the entry.
 */
export interface RequestPages {
  byPpn: Map<number, IndexedPage>;
  wasted: Set<number>;
}

const NO_PAGES: RequestPages = { byPpn: new Map(), wasted: new Set() };

/** Words after a page read in vain for a lookup. */
const inVain = (pages: RequestPages, op?: number) =>
  op !== undefined && pages.wasted.has(op) ? ', which does not hold the entry' : '';

/** The index (if any) of pages of kind `kind` (a program event's kind, e.g. 'Dtp'). */
function indexOfKind(vocab: Vocabulary, kind: string): PageIndex | undefined {
  return Object.values(vocab.indexes ?? {}).find((i) => i.kind === kind);
}

/**
 * Flash pages (by PPN) of this request that hold pages of an indexed kind, learned from its
 * events, since a read does not carry its page's kind:
 * - a page programmed with that kind, and the old copy a program of that kind supersedes
 *   (the invalidation right after it);
 * - the reads just before a hit or miss at the index level (the pages the index offered);
 * - a page read and invalidated at once (consumed whole, as a DTP merged into STPs).
 */
export function indexPages(ops: EngineEvent[], vocab: Vocabulary): RequestPages {
  const out = new Map<number, IndexedPage>();
  const wasted = new Set<number>();
  const indexes = vocab.indexes ?? {};
  const any = Object.values(indexes)[0];
  if (!any) return NO_PAGES;
  ops.forEach((e, i) => {
    const prev = ops[i - 1];
    if (e.type === 'flash_program') {
      const k = indexOfKind(vocab, e.kind);
      if (k) out.set(e.ppn, { ...k, key: e.key });
    } else if (e.type === 'invalidate' && prev?.type === 'flash_program') {
      const k = indexOfKind(vocab, prev.kind);
      if (k) out.set(e.ppn, { ...k, key: prev.key });
    } else if (e.type === 'invalidate' && prev?.type === 'flash_read' && prev.ppn === e.ppn) {
      out.set(e.ppn, { ...any, key: prev.key });
    } else if ((e.type === 'cache_hit' || e.type === 'cache_miss') && indexes[e.level]) {
      for (let j = i - 1; j >= 0; j--) {
        const r = ops[j];
        if (r.type !== 'flash_read' || r.purpose !== 'translation') break;
        // Only a hit's own page holds the entry; the others were offered in vain.
        out.set(r.ppn, { ...indexes[e.level]!, key: r.key });
        if (e.type === 'cache_miss' || r.key !== e.key) wasted.add(j);
      }
    }
  });
  return { byPpn: out, wasted };
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

/** One formatter for every cost: `toLocaleString` with options builds a new one per call,
 * which full-speed play paid thousands of times a second (a tenth of the main thread on
 * TreeFTL's 64 MB run). */
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Simulated time in words: "25 µs", "1.2 ms". */
export function formatNs(ns: number): string {
  const us = ns / 1000;
  if (us >= 10_000) return `${ONE_DECIMAL.format(us / 1000)} ms`;
  return `${ONE_DECIMAL.format(us)} µs`;
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

/** What a programmed or read page holds, in words (`index`: the page is of an indexed kind). */
function content(purpose: Purpose, key: number, kind?: string, index?: PageIndex): string {
  if (index) return `${index.short} ${key}`;
  if (kind === 'Dtp') return `dynamic translation page ${key}`;
  return kind === 'Translation' || (kind === undefined && purpose === 'translation')
    ? `translation page ${key}`
    : `LPN ${key}`;
}

const cost = (ns: number) => ` — ${formatNs(ns)}`;

function kindOf(e: EngineEvent): LineKind {
  switch (e.type) {
    case 'flash_read':
    case 'oob_read':
    case 'flash_program':
    case 'erase':
      return e.purpose === 'translation'
        ? 'mapping'
        : e.purpose === 'gc'
          ? 'gc'
          : e.purpose === 'merge'
            ? 'merge'
            : 'data';
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

/**
 * One event on its own, in words. `pages`: the request's pages of an indexed kind
 * ({@link indexPages}), `op` the event's index in the request; without them, a read is
 * told by its purpose.
 */
export function describeEvent(
  e: EngineEvent,
  ppb: number,
  vocab: Vocabulary = {},
  pages: RequestPages = NO_PAGES,
  op?: number,
): string {
  const level = (l: CacheLevel) => levelName(l, vocab);
  const index = e.type === 'cache_hit' || e.type === 'cache_miss' ? vocab.indexes?.[e.level] : undefined;
  switch (e.type) {
    case 'request':
      return describeRequest(e);
    case 'flash_read': {
      const who = e.purpose === 'gc' ? 'GC reads' : e.purpose === 'merge' ? 'Merge reads' : 'Read';
      return `${who} ${content(e.purpose, e.key, undefined, pages.byPpn.get(e.ppn))} from ${at(e.block, e.page)}${inVain(pages, op)}${cost(e.ns)}`;
    }
    case 'oob_read':
      return `Read the spare area of ${at(e.block, e.page)} (${e.purpose})${cost(e.ns)}`;
    case 'flash_program': {
      const where =
        e.purpose === 'log' || e.purpose === 'buffer' ? `${e.purpose} ${at(e.block, e.page)}` : at(e.block, e.page);
      const who = e.purpose === 'gc' ? 'GC writes' : e.purpose === 'merge' ? 'Merge writes' : 'Write';
      return `${who} ${content(e.purpose, e.key, e.kind, indexOfKind(vocab, e.kind))} (version ${e.version}) to ${where}${cost(e.ns)}`;
    }
    case 'invalidate': {
      const k = pages.byPpn.get(e.ppn);
      if (k) return `${k.short} ${k.key} at ${ppnAt(e.ppn, ppb)} is now invalid (its entries moved out of it)`;
      return `${cap(ppnAt(e.ppn, ppb))} is now invalid (its data was superseded)`;
    }
    case 'erase': {
      const why = e.purpose === 'gc' ? ' to reclaim it' : e.purpose === 'merge' ? ' after the merge' : '';
      return `Erase block ${e.block}${why}${cost(e.ns)}`;
    }
    case 'gc_start': {
      const moves = `victim block ${e.victim} has ${e.valid} valid page${e.valid === 1 ? '' : 's'} to move`;
      if (vocab.partialGc)
        return `Garbage collection begins, in partial steps that keep each request within the bound: ${moves}`;
      return `Garbage collection: free blocks ran short; ${moves}`;
    }
    case 'gc_end':
      return `GC done: block ${e.victim} is free again`;
    case 'cache_hit':
      if (index) return `${cap(level(e.level))} hit: ${index.short} ${e.key} holds the entry`;
      return `${cap(level(e.level))} hit for ${keyLabel(e.level, e.key)}`;
    case 'cache_miss':
      if (index) return `${cap(level(e.level))} miss for LPN ${e.key}: no ${index.short} holds its entry`;
      return `${cap(level(e.level))} miss for ${keyLabel(e.level, e.key)}`;
    case 'cache_insert':
      return `Load ${keyLabel(e.level, e.key)} into the ${level(e.level)}`;
    case 'cache_evict':
      return `Evict ${keyLabel(e.level, e.key)} from the ${level(e.level)}${e.dirty ? ' — dirty, so its translation page must be rewritten' : ' — clean, simply dropped'}`;
    case 'merge':
      return describeMerge(e, ppb);
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

/**
 * Where evictions from one level starting at op `i` end in a program of a page of an
 * indexed kind (entries packed into a new DTP): that program's op, else -1.
 */
function packedInto(ops: EngineEvent[], i: number, vocab: Vocabulary): number {
  const first = ops[i];
  if (first.type !== 'cache_evict') return -1;
  let j = i;
  while (ops[j]?.type === 'cache_evict' && (ops[j] as { level: CacheLevel }).level === first.level) j++;
  const p = ops[j];
  return p?.type === 'flash_program' && p.purpose !== 'gc' && indexOfKind(vocab, p.kind) ? j : -1;
}

/** The last merge of the run that `ops[end]` (a gc_end) closes, if it merged. */
function mergedInto(ops: EngineEvent[], end: number): Extract<EngineEvent, { type: 'merge' }> | undefined {
  for (let i = end - 1; i >= 0 && ops[i].type !== 'gc_start'; i--) {
    const e = ops[i];
    if (e.type === 'merge') return e;
  }
  return undefined;
}

/** Narrates one request's operations, folding the pairs that belong together. */
export function narrate(trace: RequestTrace, ppb: number, vocab: Vocabulary = {}): NarrationLine[] {
  const ops = trace.ops;
  const pages = indexPages(ops, vocab);
  const lines: NarrationLine[] = [];
  // A scheme with CTPs and CDPs under them: its tree operations are told as one line each
  // (a prune with GC inside is told event by event, so the GC keeps its own lines).
  const tree = new Map<number, TreeOp>();
  if (hasTree(Object.keys(vocab)))
    for (const o of treeOps(ops))
      if (!ops.slice(o.first, o.last + 1).some((x) => x.type === 'gc_start')) tree.set(o.first, o);
  for (let i = 0; i < ops.length; i++) {
    const e = ops[i];
    const next = ops[i + 1];
    const line = (last: number, text: string, ns: number, kind = kindOf(e)) => {
      lines.push({ first: i, last, kind, text, ns });
      i = last;
    };
    const t = tree.get(i);
    if (t) {
      const said = treeCost(t, formatNs);
      line(t.last, `${treeLine(t, ops)}${said ? ` — ${said}` : ''}`, t.ns, t.op === 'ctp-load' ? 'mapping' : 'data');
      continue;
    }
    const packEnd = e.type === 'cache_evict' ? packedInto(ops, i, vocab) : -1;
    if (e.type === 'cache_evict' && next?.type === 'cache_insert' && next.key === e.key && next.level !== e.level) {
      // An entry handed on to another structure (HCFTL's CMT victim into the Ghost-CMT).
      line(
        i + 1,
        `Move ${keyLabel(e.level, e.key)} from the ${levelName(e.level, vocab)} to the ${levelName(next.level, vocab)} (${e.dirty ? 'dirty' : 'clean'})`,
        0,
        'mapping',
      );
    } else if (packEnd >= 0) {
      const p = ops[packEnd] as Extract<EngineEvent, { type: 'flash_program' }>;
      const keys = ops.slice(i, packEnd).map((x) => (x as { key: number }).key);
      const what = `${content(p.purpose, p.key, p.kind, indexOfKind(vocab, p.kind))} (version ${p.version}) at ${at(p.block, p.page)}`;
      line(
        packEnd,
        `Pack LPN ${keys.join(', ')} from the ${levelName((e as { level: CacheLevel }).level, vocab)} into ${what}${cost(p.ns)}`,
        p.ns,
        'mapping',
      );
    } else if (e.type === 'cache_miss' && next?.type === 'flash_read' && next.purpose === 'translation') {
      const name = cap(levelName(e.level, vocab));
      const what = vocab.indexes?.[e.level] ? `LPN ${e.key}` : keyLabel(e.level, e.key);
      line(
        i + 1,
        `${name} miss for ${what}: read ${content('translation', next.key, undefined, pages.byPpn.get(next.ppn))} from ${at(next.block, next.page)}${inVain(pages, i + 1)}${cost(next.ns)}`,
        next.ns,
        'mapping',
      );
    } else if (copyAt(ops, i)) {
      const { read, program: w, last } = copyAt(ops, i)!;
      const what = content('gc', w.key, w.kind, indexOfKind(vocab, w.kind));
      const who = read.purpose === 'merge' ? 'Merge copies' : 'GC copies';
      line(
        last,
        `${who} ${what} from ${at(read.block, read.page)} to ${at(w.block, w.page)}${cost(read.ns + w.ns)}`,
        read.ns + w.ns,
      );
    } else if (e.type === 'merge') {
      line(i, narrateMerge(ops, i, ppb, formatNs), 0);
    } else if (e.type === 'gc_start' && runMerges(ops, i)) {
      const m = runMerges(ops, i)!;
      const valid = `${e.valid} valid page${e.valid === 1 ? '' : 's'}`;
      const text =
        m.cause === 'fold'
          ? `Reclaim replacement block ${e.victim} (${valid}): fold it with its primary block`
          : `Reclaim log block ${e.victim} (${valid}): merge it with the data block${m.degree > 1 ? 's' : ''} it holds pages of`;
      line(i, text, 0, 'merge');
    } else if (e.type === 'gc_end' && mergedInto(ops, i) !== undefined) {
      const m = mergedInto(ops, i)!;
      const now =
        m.result_block === e.victim ? `is now the data block of logical block ${m.lbn}` : 'is erased and free again';
      line(i, `Merge done: ${m.cause === 'fold' ? 'replacement' : 'log'} block ${e.victim} ${now}`, 0, 'merge');
    } else if (e.type === 'flash_program' && e.purpose !== 'gc' && next?.type === 'invalidate' && next.ppn !== e.ppn) {
      const text = describeEvent(e, ppb, vocab, pages, i).replace(/ — [^—]*$/, '');
      line(i + 1, `${text}; the old copy at ${ppnAt(next.ppn, ppb)} is now invalid${cost(e.ns)}`, e.ns);
    } else {
      line(i, describeEvent(e, ppb, vocab, pages, i), 'ns' in e ? e.ns : 0);
    }
  }
  return lines;
}
