// The TypeScript names of the engine's codes must be the engine's: checked against vocabJson().
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { shortcuts } from '../controls/keymap';
import { ROLES } from '../views/BlockGrid/palette';
import { BLOCK_ROLE, PAGE_KIND, PAGE_STATE, PURPOSE } from './codes';
import type { Code, Vocab } from './protocol';

const table = (codes: Code[]) => Object.fromEntries(codes.map((c) => [c.id, c.code]));

describe('engine codes', () => {
  const vocab = JSON.parse(loadWasm().vocabJson()) as Vocab;

  it('match the engine vocabulary, code for code', () => {
    expect(BLOCK_ROLE).toEqual(table(vocab.block_roles));
    expect(PAGE_STATE).toEqual(table(vocab.page_states));
    expect(PAGE_KIND).toEqual(table(vocab.page_kinds));
    expect(PURPOSE).toEqual(table(vocab.purposes));
  });

  it('name the translation-page causes the metrics count by, codes in counter order', () => {
    expect(vocab.tpage_causes.map((c) => c.code)).toEqual(vocab.tpage_causes.map((_, i) => i));
    expect(vocab.tpage_causes.every((c) => c.label.length > 0)).toBe(true);
    const trace = 'msr-cambridge_hm_0_first1000.csv';
    const sim = new (loadWasm().Simulation)('{"scheme":"dftl"}', new Uint8Array(shippedTrace(trace)), trace);
    sim.step(20);
    const tp = JSON.parse(sim.metricsJson()).translation_pages;
    sim.free();
    for (const row of [tp.reads, tp.writes])
      expect(Object.keys(row).sort()).toEqual(vocab.tpage_causes.map((c) => c.id).sort());
  });

  it('give every engine block role a colour in the grid palette', () => {
    for (const r of vocab.block_roles) expect(ROLES[r.code], `role ${r.id}`).toBeDefined();
  });

  it('list stops with a label, a one-letter key and a doc, keys distinct', () => {
    const keys = vocab.stops.map((s) => s.key.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of vocab.stops)
      expect([s.label.length > 0, /^[a-z]$/i.test(s.key), s.doc.length > 0]).toEqual([true, true, true]);
  });

  it('give each stop a key no other shortcut takes', () => {
    const list = shortcuts(vocab.stops);
    for (const s of vocab.stops) {
      const e = { key: s.key, shiftKey: false } as KeyboardEvent;
      expect(
        list.filter((x) => x.match(e)).map((x) => x.label),
        s.id,
      ).toHaveLength(1);
    }
  });
});
