/**
 * A request's path through the scheme's RAM, from its events: lookup (hit or miss) →
 * translation-page read → insert → evict → write back, one step per event, each pointing at
 * the structures of the inspection it concerns. Pure, so the panel only draws it.
 *
 * Steps find their structures by shape and by what the events carry, never by scheme id, so a
 * new scheme's structures light up with no code here:
 * - a cache event at level L (hit, miss, insert, evict) → the list of level L, by key;
 * - a translation-page read or program → every table row with that translation page as key
 *   (a GTD), and every range stored at that flash page (a DTP index entry).
 */
import type { CacheLevel, EngineEvent } from '../../engine/events';
import type { Structure } from '../../engine/inspection';
import { at, keyLabel, levelName, type Vocabulary } from '../../narration/narrate';

/** What a step does. */
export type StepKind = 'hit' | 'miss' | 'tp-read' | 'insert' | 'evict' | 'tp-write';

/** Where a step lands in one structure: an item by key (lists, tables) or by flash page (ranges). */
export interface Target {
  structure: string;
  key?: number;
  ppn?: number;
}

/** One step of the path. */
export interface PathStep {
  /** Index of its event in the request's ops. */
  op: number;
  kind: StepKind;
  /** Short words, in the scheme's vocabulary. */
  text: string;
  /** Evictions: whether the entry was dirty (it must be written back). */
  dirty?: boolean;
  /** Cache events: the level and key. */
  level?: CacheLevel;
  key: number;
  targets: Target[];
}

/** A structure's name without its explanation in brackets ("Ghost-CMT (evicted …)" → "Ghost-CMT"). */
export function shortName(name: string): string {
  return name.replace(/\s*\(.*$/, '') || name;
}

/** Names of the structures, from the inspection first (the scheme's words), then the spec. */
function namer(structures: Structure[], vocab: Vocabulary) {
  return (level: CacheLevel) => {
    const s = structures.find((x) => x.shape === 'list' && x.level === level);
    return s ? shortName(s.name) : levelName(level, vocab);
  };
}

/**
 * Where a page of mapping entries (key `key`, at flash page `ppn`) appears in the structures:
 * the ranges stored at that page, if any (a DTP index entry); otherwise, for a translation
 * page, the table rows keyed by it (a GTD).
 */
function pageTargets(structures: Structure[], key: number, ppn: number, translationPage: boolean): Target[] {
  const ranges = structures
    .filter((s) => s.shape === 'ranges' && s.ranges.some((r) => r.ppn === ppn))
    .map((s) => ({ structure: s.id, ppn }));
  if (ranges.length) return ranges;
  if (translationPage) return structures.filter((s) => s.shape === 'table').map((s) => ({ structure: s.id, key }));
  // A new page of another kind (a DTP just packed): the range indexes it will enter, where
  // it shows as pending until the request ends and the inspection has its entry.
  return structures.filter((s) => s.shape === 'ranges').map((s) => ({ structure: s.id, ppn }));
}

/**
 * The range index the spec names a cache level after, when no list has that level (HCFTL's
 * "DTP index" is the translation-page level of its spec and a set of ranges in its inspection).
 */
function rangesNamed(structures: Structure[], name: string) {
  return structures.find(
    (s): s is Extract<Structure, { shape: 'ranges' }> => s.shape === 'ranges' && shortName(s.name) === shortName(name),
  );
}

/**
 * A lookup in a range index: a hit names the entry found (its range id), a miss the key
 * looked up (a logical page: ranges hold LPN windows).
 */
function indexLookup(
  op: number,
  type: 'cache_hit' | 'cache_miss',
  level: CacheLevel,
  key: number,
  index: Extract<Structure, { shape: 'ranges' }>,
): PathStep {
  const name = shortName(index.name);
  if (type === 'cache_miss')
    return {
      op,
      level,
      key,
      kind: 'miss',
      text: `Look up LPN ${key} in the ${name}: miss`,
      targets: [{ structure: index.id }],
    };
  const r = index.ranges.find((x) => x.id === key);
  const where = r ? `, entry ${key} (keys ${r.min}–${r.max})` : `, entry ${key}`;
  return {
    op,
    level,
    key,
    kind: 'hit',
    text: `Look up in the ${name}: hit${where}`,
    targets: [{ structure: index.id, ppn: r?.ppn }],
  };
}

/** The range stored at flash page `ppn`, with its structure's name. */
function rangeAt(structures: Structure[], ppn: number) {
  for (const s of structures) {
    const r = s.shape === 'ranges' ? s.ranges.find((x) => x.ppn === ppn) : undefined;
    if (r) return { name: shortName(s.name), min: r.min, max: r.max };
  }
  return undefined;
}

/**
 * The steps of `ops` (a request's events) that touch RAM structures, in order. `kindNames`
 * are the engine's page-kind labels by id (`vocab.page_kinds`), for page kinds a scheme adds.
 */
export function requestPath(
  ops: EngineEvent[],
  structures: Structure[],
  vocab: Vocabulary = {},
  kindNames: Record<string, string> = {},
): PathStep[] {
  const name = namer(structures, vocab);
  const list = (level: CacheLevel) => structures.find((s) => s.shape === 'list' && s.level === level)?.id;
  const steps: PathStep[] = [];
  ops.forEach((e, op) => {
    switch (e.type) {
      case 'cache_hit':
      case 'cache_miss':
      case 'cache_insert':
      case 'cache_evict': {
        const id = list(e.level);
        const index = id === undefined ? rangesNamed(structures, levelName(e.level, vocab)) : undefined;
        if (index && (e.type === 'cache_hit' || e.type === 'cache_miss')) {
          steps.push(indexLookup(op, e.type, e.level, e.key, index));
          break;
        }
        const targets = id === undefined ? [] : [{ structure: id, key: e.key }];
        const what = keyLabel(e.level, e.key);
        const where = name(e.level);
        const base = { op, level: e.level, key: e.key, targets };
        if (e.type === 'cache_hit') steps.push({ ...base, kind: 'hit', text: `Look up ${what} in the ${where}: hit` });
        else if (e.type === 'cache_miss')
          steps.push({ ...base, kind: 'miss', text: `Look up ${what} in the ${where}: miss` });
        else if (e.type === 'cache_insert')
          steps.push({ ...base, kind: 'insert', text: `Insert ${what} into the ${where}` });
        else if (e.type === 'cache_evict')
          steps.push({
            ...base,
            kind: 'evict',
            dirty: e.dirty,
            text: `Evict ${what} from the ${where} (${e.dirty ? 'dirty' : 'clean'})`,
          });
        break;
      }
      case 'flash_read':
        if (e.purpose === 'translation') {
          const range = rangeAt(structures, e.ppn);
          const text = range
            ? `Read flash page ${e.ppn} (${range.name} entry, keys ${range.min}–${range.max})`
            : `Read translation page ${e.key} from flash (${at(e.block, e.page)})`;
          steps.push({ op, kind: 'tp-read', key: e.key, text, targets: pageTargets(structures, e.key, e.ppn, true) });
        }
        break;
      case 'flash_program':
        // Any page of mapping entries: translation pages, and kinds a scheme adds (DTPs).
        // (The engine's vocabulary may hold more kinds than the PageKind type lists.)
        const kind: string = e.kind;
        if (kind !== 'Data' && kind !== 'None') {
          const what = `${kind === 'Translation' ? 'translation page' : (kindNames[kind.toLowerCase()] ?? kind).toLowerCase()} ${e.key}`;
          const who = e.purpose === 'gc' ? 'GC moves' : kind === 'Translation' ? 'Write back' : 'Write';
          steps.push({
            op,
            kind: 'tp-write',
            key: e.key,
            text: `${who} ${what} to ${at(e.block, e.page)}`,
            targets: pageTargets(structures, e.key, e.ppn, kind === 'Translation'),
          });
        }
        break;
    }
  });
  return steps;
}

/**
 * The step the timeline stands on: the last one whose event is applied. `applied` is how
 * many of the request's ops are applied (all of them at a request boundary). -1 before the
 * first step.
 */
export function currentStep(path: PathStep[], applied: number): number {
  let cur = -1;
  for (let i = 0; i < path.length && path[i].op < applied; i++) cur = i;
  return cur;
}

/** What one structure highlights for a step: the item and the step's kind. */
export interface Highlight {
  kind: StepKind;
  key?: number;
  ppn?: number;
  dirty?: boolean;
}

/** The highlight of each structure (by id) for step `step` of `path` (none for -1). */
export function highlights(path: PathStep[], step: number): Map<string, Highlight> {
  const out = new Map<string, Highlight>();
  const s = path[step];
  if (!s) return out;
  for (const t of s.targets) out.set(t.structure, { kind: s.kind, key: t.key, ppn: t.ppn, dirty: s.dirty });
  return out;
}

/** Counts of each step kind in a path ("3 hits, 1 miss…"), for the summary at speed. */
export function pathSummary(path: PathStep[]): string {
  const words: Record<StepKind, [string, string]> = {
    hit: ['hit', 'hits'],
    miss: ['miss', 'misses'],
    'tp-read': ['translation-page read', 'translation-page reads'],
    insert: ['insert', 'inserts'],
    evict: ['eviction', 'evictions'],
    'tp-write': ['translation-page write', 'translation-page writes'],
  };
  const counts = new Map<StepKind, number>();
  for (const s of path) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  const parts = (Object.keys(words) as StepKind[])
    .filter((k) => counts.has(k))
    .map((k) => `${counts.get(k)} ${words[k][counts.get(k) === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(', ') : 'no cache or translation work';
}
