import { describe, expect, it } from 'vitest';
import { loadWasm } from '../test/wasmNode';
import { schemeColor } from './schemeColors';

const ENGINE_ORDER = (JSON.parse(loadWasm().schemesJson()) as { id: string }[]).map((s) => s.id);

describe('schemeColor', () => {
  it('gives every scheme the engine lists its own colour', () => {
    const colours = ENGINE_ORDER.map((id) => schemeColor(id, ENGINE_ORDER));
    expect(new Set(colours).size).toBe(ENGINE_ORDER.length);
  });

  it("gives an id the engine does not list a neutral grey, not another scheme's colour", () => {
    expect(ENGINE_ORDER.map((id) => schemeColor(id, ENGINE_ORDER))).not.toContain('#888888');
    expect(schemeColor('not-a-scheme', ENGINE_ORDER)).toBe('#888888');
  });
});
