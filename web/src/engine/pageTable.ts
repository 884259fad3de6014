/**
 * What each physical page holds (logical page, version, kind), learned from the engine's
 * program events. The wasm frame carries page states but not the spare-area tags, so the
 * worker keeps this table for hover and cell labels.
 *
 * Each entry remembers its block's erase count at the time of the program. A page is
 * programmed once per erase, so an entry whose erase count equals the block's count now
 * (and whose page is not free) is exactly the page's content — even after the timeline
 * skipped events (seek, full speed) or stepped backwards. Anything else is "unknown".
 */
import { PAGE_KIND, PAGE_STATE } from './codes';
import type { EventCodec } from './eventCodec';
import type { PageKind } from './events';

/** A page's content as recorded by its program event. */
export interface PageInfo {
  ppn: number;
  /** Logical page (data) or translation-page number (translation). */
  key: number;
  /** Version stamp of that write (the integrity oracle's counter). */
  version: number;
  kind: PageKind;
  /** The block's erase count when the page was programmed. */
  erases: number;
}

/** Event kind names by engine `PageKind` code. */
const KINDS: PageKind[] = [];
KINDS[PAGE_KIND.none] = 'None';
KINDS[PAGE_KIND.data] = 'Data';
KINDS[PAGE_KIND.translation] = 'Translation';
KINDS[PAGE_KIND.dtp] = 'Dtp';

export class PageTable {
  private readonly key: Uint32Array;
  private readonly version: Uint32Array;
  private readonly kind: Uint8Array;
  /** Erase count at program time; -1 = never seen. */
  private readonly gen: Int32Array;

  constructor(
    pages: number,
    private readonly pagesPerBlock: number,
  ) {
    this.key = new Uint32Array(pages);
    this.version = new Uint32Array(pages);
    this.kind = new Uint8Array(pages);
    this.gen = new Int32Array(pages).fill(-1);
  }

  /**
   * Records the programs in `words` (a `takeEvents()` batch of binary records, read with
   * `codec`). `erasesAfter` are the blocks' erase counts after the batch.
   */
  ingest(words: Uint32Array, erasesAfter: Uint32Array, codec: EventCodec) {
    // Erase counts at the start of the batch: the counts after it, less its erases.
    const erased = new Map<number, number>();
    codec.scan(
      words,
      () => {},
      (b) => erased.set(b, (erased.get(b) ?? 0) + 1),
    );
    const running = new Map<number, number>();
    for (const [b, n] of erased) running.set(b, erasesAfter[b] - n);
    codec.scan(
      words,
      (ppn, block, kind, key, version) => {
        this.key[ppn] = key;
        this.version[ppn] = version;
        this.kind[ppn] = kind;
        this.gen[ppn] = running.get(block) ?? erasesAfter[block];
      },
      (block) => running.set(block, (running.get(block) ?? erasesAfter[block]) + 1),
    );
  }

  /**
   * Records every programmed page from the engine's tags (`[key, version, kind]` per page),
   * for pages no event has described yet: those written while pre-filling.
   */
  seed(tags: Uint32Array, pageStates: Uint8Array, eraseCounts: Uint32Array) {
    for (let p = 0; p < pageStates.length; p++) {
      if (pageStates[p] === PAGE_STATE.free) continue;
      this.key[p] = tags[3 * p];
      this.version[p] = tags[3 * p + 1];
      this.kind[p] = tags[3 * p + 2];
      this.gen[p] = eraseCounts[Math.floor(p / this.pagesPerBlock)];
    }
  }

  /** The recorded content of `ppn`, if any (check it with {@link isCurrent}). */
  info(ppn: number): PageInfo | null {
    if (ppn < 0 || ppn >= this.gen.length || this.gen[ppn] < 0) return null;
    return { ppn, key: this.key[ppn], version: this.version[ppn], kind: KINDS[this.kind[ppn]], erases: this.gen[ppn] };
  }

  /** Logical page of every programmed page whose entry is current; -1 elsewhere. */
  keys(pageStates: Uint8Array, eraseCounts: Uint32Array): Int32Array {
    const out = new Int32Array(pageStates.length).fill(-1);
    for (let p = 0; p < out.length; p++) {
      if (pageStates[p] !== PAGE_STATE.free && this.gen[p] === eraseCounts[Math.floor(p / this.pagesPerBlock)])
        out[p] = this.key[p];
    }
    return out;
  }
}

/** Whether recorded info still describes the page (same erase generation, not free). */
export function isCurrent(info: PageInfo | null, pageState: number, blockErases: number): info is PageInfo {
  return !!info && pageState !== PAGE_STATE.free && info.erases === blockErases;
}
