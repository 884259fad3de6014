// HCFTL's DTP index told as an index of dynamic translation pages, from real
// engine events (the wasm build in Node): the wording follows the spec's cache level and the
// engine's page kinds, so any scheme naming a cache "<KIND> index" gets it.
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { groupByRequest, type EngineEvent, type RequestTrace } from '../engine/events';
import type { SchemeSpec, Vocab } from '../engine/protocol';
import { cacheVocabulary, indexPages, narrate } from './narrate';

const TRACE = 'msr-cambridge_hm_0_first1000.csv';

/** The first `n` requests of hm_0 under `scheme`, with the engine's spec and vocabulary. */
function run(scheme: string, n: number) {
  const wasm = loadWasm();
  const vocab = JSON.parse(wasm.vocabJson()) as Vocab;
  const spec = (JSON.parse(wasm.schemesJson()) as SchemeSpec[]).find((s) => s.id === scheme)!;
  const sim = new wasm.Simulation(
    JSON.stringify({ scheme, record_events: true }),
    new Uint8Array(shippedTrace(TRACE)),
    TRACE,
  );
  sim.takeEventsJson(); // the pre-fill's events
  const requests: RequestTrace[] = [];
  for (let r = 0; r < n && !sim.done(); r++) {
    sim.step(1);
    requests.push(...groupByRequest(JSON.parse(sim.takeEventsJson()) as EngineEvent[]));
  }
  const ppb = sim.frame().pageStates.length / sim.frame().validCounts.length;
  sim.free();
  return { vocab, spec, requests, ppb };
}

describe('narration of an index of pages (HCFTL’s DTP index)', () => {
  const { vocab, spec, requests, ppb } = run('hcftl', 1000);
  const words = cacheVocabulary(spec, vocab.page_kinds);
  const level = spec.caches.find((c) => c.name.startsWith('DTP index'))!.level as 'translation_page';

  it('learns from the spec and the page kinds which level indexes DTPs', () => {
    expect(words.indexes?.[level]).toEqual({ short: 'DTP', kind: 'Dtp', label: 'dynamic translation page' });
    // A cached translation page (CDFTL's second level) is no index.
    const cdftl = (JSON.parse(loadWasm().schemesJson()) as SchemeSpec[]).find((s) => s.id === 'cdftl');
    expect(cacheVocabulary(cdftl, vocab.page_kinds).indexes).toBeUndefined();
  });

  it('tells index hits by the DTP found and misses by the LPN, never as translation pages', () => {
    const lookups = requests.flatMap((t) => {
      const lines = narrate(t, ppb, words);
      return t.ops.flatMap((e, i) => {
        if ((e.type !== 'cache_hit' && e.type !== 'cache_miss') || e.level !== level) return [];
        return [{ e, text: lines.find((l) => l.first <= i && i <= l.last)!.text }];
      });
    });
    const hits = lookups.filter((l) => l.e.type === 'cache_hit');
    const misses = lookups.filter((l) => l.e.type === 'cache_miss');
    expect(hits.length).toBeGreaterThan(0);
    expect(misses.length).toBeGreaterThan(0);
    for (const { e, text } of hits) expect(text).toBe(`DTP index hit: DTP ${e.key} holds the entry`);
    // A miss is followed by the static translation page's read, told on the same line.
    for (const { e, text } of misses)
      expect(text).toMatch(
        new RegExp(
          `^DTP index miss for LPN ${e.key}(: no DTP holds its entry|: read translation page \\d+ from block \\d+, page \\d+ — )`,
        ),
      );
    for (const { text } of lookups) expect(text).not.toMatch(/DTP index \w+ for translation page/);
  });

  it('tells the DTPs read for a lookup, written when packed and invalidated when used up', () => {
    const texts = (pred: (e: EngineEvent, pages: ReturnType<typeof indexPages>) => boolean) =>
      requests.flatMap((t) => {
        const pages = indexPages(t.ops, words);
        const lines = narrate(t, ppb, words);
        return t.ops.flatMap((e, i) => (pred(e, pages) ? [lines.find((l) => l.first <= i && i <= l.last)!.text] : []));
      });
    // The reads just before a hit are of the DTP the hit names.
    const hitReads = requests.flatMap((t) => {
      const lines = narrate(t, ppb, words);
      return t.ops.flatMap((e, i) => {
        const next = t.ops[i + 1];
        if (e.type !== 'flash_read' || next?.type !== 'cache_hit' || next.level !== level) return [];
        return [{ key: next.key, text: lines.find((l) => l.first <= i && i <= l.last)!.text }];
      });
    });
    expect(hitReads.length).toBeGreaterThan(0);
    for (const { key, text } of hitReads)
      expect(text).toMatch(new RegExp(`read DTP ${key} from block \\d+, page \\d+ — |^Read DTP ${key} from`, 'i'));
    for (const { text } of hitReads) expect(text).not.toContain('does not hold');
    // The DTPs read just before an index miss were offered by the filter in vain.
    const vain = requests.flatMap((t) => {
      const lines = narrate(t, ppb, words);
      return t.ops.flatMap((e, i) => {
        const next = t.ops[i + 1];
        if (e.type !== 'flash_read' || next?.type !== 'cache_miss' || next.level !== level) return [];
        return [lines.find((l) => l.first <= i && i <= l.last)!.text];
      });
    });
    expect(vain.length).toBeGreaterThan(0);
    for (const text of vain)
      expect(text).toMatch(/read DTP \d+ from block \d+, page \d+, which does not hold the entry — /i);
    const writes = texts((e) => e.type === 'flash_program' && e.kind === 'Dtp');
    expect(writes.length).toBeGreaterThan(0);
    // Packed from the Ghost-CMT (one line naming the entries), rewritten by GC with moved
    // entries, or copied out of a GC victim.
    for (const t of writes)
      expect(t).toMatch(
        /^((GC writes|Write) DTP \d+ \(version \d+\) to|GC copies DTP \d+ from block \d+, page \d+ to|Pack LPN [\d, ]+ from the Ghost-CMT into DTP \d+ \(version \d+\) at) block \d+, page \d+/,
      );
    expect(writes.some((t) => t.startsWith('Pack LPN'))).toBe(true);
    // A CMT victim handed to the Ghost-CMT is one move, not a write-back.
    const moves = texts((e) => e.type === 'cache_evict' && e.level === 'entry');
    expect(moves.length).toBeGreaterThan(0);
    for (const t of moves) expect(t).toMatch(/^Move LPN \d+ from the CMT to the Ghost-CMT \((dirty|clean)\)$/);
    const used = texts((e, pages) => e.type === 'invalidate' && pages.byPpn.has(e.ppn));
    expect(used.length).toBeGreaterThan(0);
    expect(
      used.some((t) => /^DTP \d+ at block \d+, page \d+ is now invalid \(its entries moved out of it\)$/.test(t)),
    ).toBe(true);
  });
});
