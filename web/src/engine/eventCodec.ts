/**
 * The hot event channel: `takeEvents()` returns fixed-width records of `event_words` (8)
 * u32 words, `[kind, a, b, c, d, e, f, g]`. This file is the only TypeScript mirror of the
 * layout documented in core-wasm/engine/src/events.rs (eventCodec.test.ts decodes a real run
 * and compares it with `takeEventsJson()`). Names of kinds, purposes and cache levels come
 * from the engine's vocabulary, so only word positions are written here.
 *
 *   kind            a        b        c                          d        e        f,g
 *   request         index lo index hi op (0 read, 1 write, 2 trim) lpn   pages
 *   flash_read      ppn      block    page | purpose<<16           key               ns lo,hi
 *   oob_read        ppn      block    page | purpose<<16                             ns lo,hi
 *   flash_program   ppn      block    page | purpose<<16 | kind<<24 key     version  ns lo,hi
 *   invalidate      ppn
 *   erase           block    purpose                                                 ns lo,hi
 *   gc_start/_end   victim   valid
 *   cache_*         level    key      bytes (insert/evict)       dirty (evict)
 *   merge           kind | cause<<8  lbn  data block (none: 2^32-1)  log block  result block  written  degree
 *                   (kind 0 switch, 1 partial, 2 full; cause as MERGE_CAUSES)
 *   cost            RAM ns lo,hi  LRU ns lo,hi   (no event: the RAM and LRU time charged after the
 *                   record before it; decodeAll adds it to that event as `ram_ns` / `lru_ns`)
 *
 * Full-speed play only walks programs and erases (page table) and decodes the last few
 * requests (narration), so thousands of requests per frame never become objects.
 */
import type { EngineEvent, MergeCause, PageKind, RequestTrace } from './events';
import { groupByRequest } from './events';
import type { Vocab } from './protocol';

/** Words per record (checked against the engine's `event_words`). */
export const EVENT_WORDS = 8;

const OPS = ['read', 'write', 'trim'] as const;
const MERGES = ['switch', 'partial', 'full'] as const;
/** Engine `MergeCause` by code. */
export const MERGE_CAUSES: MergeCause[] = ['in_order', 'out_of_order', 'shared', 'superseded', 'fold'];
/** A merge's data-block word when the logical block had no data block. */
const NO_BLOCK = 0xffffffff;
const KIND_NAMES: PageKind[] = ['None', 'Data', 'Translation', 'Dtp'];

/** Called for each page program, in order, by {@link EventCodec.scan}. */
export type RecordVisitor = (ppn: number, block: number, kindCode: number, key: number, version: number) => void;

export class EventCodec {
  private readonly kinds: string[];
  private readonly purposes: string[];
  private readonly levels: string[];
  private readonly pageKinds: PageKind[];
  /** Codes the hot loops test for. */
  private readonly REQUEST: number;
  private readonly PROGRAM: number;
  private readonly ERASE: number;
  private readonly INVALIDATE: number;
  /** The cost record's code (-1 with an engine that sends none). */
  private readonly COST: number;

  constructor(vocab: Vocab) {
    const byCode = (rows: { code: number; id: string }[]) => {
      const out: string[] = [];
      for (const r of rows) out[r.code] = r.id;
      return out;
    };
    this.kinds = byCode(vocab.event_kinds);
    this.purposes = byCode(vocab.purposes);
    this.levels = byCode(vocab.cache_levels);
    // Page kinds travel as serde variant names in the JSON events: 'Data', 'Translation'.
    this.pageKinds = byCode(vocab.page_kinds).map((id) => (id.charAt(0).toUpperCase() + id.slice(1)) as PageKind);
    const code = (id: string) => {
      const c = this.kinds.indexOf(id);
      if (c < 0) throw new Error(`the engine's event kinds lack '${id}'`);
      return c;
    };
    this.REQUEST = code('request');
    this.PROGRAM = code('flash_program');
    this.ERASE = code('erase');
    this.INVALIDATE = code('invalidate');
    this.COST = this.kinds.indexOf('cost');
  }

  /** Name of a page-kind code as the JSON events spell it. */
  pageKind(code: number): PageKind {
    return this.pageKinds[code] ?? KIND_NAMES[code] ?? 'None';
  }

  /**
   * Adds the blocks whose pages the events in `words` changed (programs, invalidations,
   * erases) to `out`, which holds `count` of them; `mark` (one byte a block) is set for each
   * block in `out`, so none is added twice. Returns the new count.
   */
  touchedBlocks(words: Uint32Array, pagesPerBlock: number, mark: Uint8Array, out: Uint32Array, count: number): number {
    const { PROGRAM, ERASE, INVALIDATE } = this;
    let n = count;
    for (let i = 0; i < words.length; i += EVENT_WORDS) {
      const k = words[i];
      let b = -1;
      if (k === PROGRAM) b = words[i + 2];
      else if (k === ERASE) b = words[i + 1];
      else if (k === INVALIDATE) b = Math.floor(words[i + 1] / pagesPerBlock);
      if (b < 0 || mark[b]) continue;
      mark[b] = 1;
      out[n++] = b;
    }
    return n;
  }

  /** Visits every program and erase in `words`, in order, without building objects. */
  scan(words: Uint32Array, onProgram: RecordVisitor, onErase: (block: number) => void) {
    const { PROGRAM, ERASE } = this;
    for (let i = 0; i < words.length; i += EVENT_WORDS) {
      const k = words[i];
      if (k === PROGRAM) onProgram(words[i + 1], words[i + 2], words[i + 3] >>> 24, words[i + 4], words[i + 5]);
      else if (k === ERASE) onErase(words[i + 1]);
    }
  }

  /** The record at word offset `i` as the JSON event it stands for. */
  decode(w: Uint32Array, i: number): EngineEvent {
    const [a, b, c, d, e, f, g] = [w[i + 1], w[i + 2], w[i + 3], w[i + 4], w[i + 5], w[i + 6], w[i + 7]];
    const ns = f + g * 2 ** 32;
    const page = c & 0xffff;
    const purpose = this.purposes[(c >>> 16) & 0xff] as never;
    const type = this.kinds[w[i]];
    switch (type) {
      case 'request':
        return { type, index: a + b * 2 ** 32, op: OPS[c], lpn: d, pages: e };
      case 'flash_read':
        return { type, ppn: a, block: b, page, purpose, key: d, ns };
      case 'oob_read':
        return { type, ppn: a, block: b, page, purpose, ns };
      case 'flash_program':
        return { type, ppn: a, block: b, page, purpose, kind: this.pageKind(c >>> 24), key: d, version: e, ns };
      case 'invalidate':
        return { type, ppn: a };
      case 'erase':
        return { type, block: a, purpose: this.purposes[b] as never, ns };
      case 'gc_start':
        return { type, victim: a, valid: b };
      case 'gc_end':
        return { type, victim: a };
      case 'cache_hit':
      case 'cache_miss':
        return { type, level: this.levels[a] as never, key: b };
      case 'cache_insert':
        return { type, level: this.levels[a] as never, key: b, bytes: c };
      case 'cache_evict':
        return { type, level: this.levels[a] as never, key: b, bytes: c, dirty: d !== 0 };
      case 'merge':
        return {
          type,
          kind: MERGES[a & 0xff],
          lbn: b,
          data_block: c === NO_BLOCK ? null : c,
          log_block: d,
          result_block: e,
          cause: MERGE_CAUSES[a >>> 8],
          written: f,
          degree: g,
        };
      default:
        throw new Error(`event record ${i / EVENT_WORDS}: unknown kind ${w[i]}`);
    }
  }

  /**
   * Every record in `words` as events (tests and small batches). A cost record adds its RAM
   * and LRU time to the event before it (`ram_ns`, `lru_ns`); one before any event is dropped.
   */
  decodeAll(words: Uint32Array, from = 0): EngineEvent[] {
    const out: EngineEvent[] = [];
    for (let i = from; i < words.length; i += EVENT_WORDS) {
      if (words[i] !== this.COST) {
        out.push(this.decode(words, i));
        continue;
      }
      const prev = out.at(-1);
      if (!prev) continue;
      prev.ram_ns = (prev.ram_ns ?? 0) + words[i + 1] + words[i + 2] * 2 ** 32;
      prev.lru_ns = (prev.lru_ns ?? 0) + words[i + 3] + words[i + 4] * 2 ** 32;
    }
    return out;
  }

  /** The last `max` requests of a batch, decoding only their records. */
  tail(words: Uint32Array, max: number): RequestTrace[] {
    if (max <= 0) return [];
    let at = words.length;
    let found = 0;
    for (let i = words.length - EVENT_WORDS; i >= 0 && found < max; i -= EVENT_WORDS) {
      if (words[i] === this.REQUEST) {
        at = i;
        found++;
      }
    }
    return found ? groupByRequest(this.decodeAll(words, at)) : [];
  }
}
