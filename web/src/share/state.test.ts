// A link's JSON is checked before anything is built from it: each hostile or malformed
// class is refused (experiment) or dropped with a note (how it was looked at).
import { describe, expect, it } from 'vitest';
import { ShareError } from './codec';
import { parseShared, type Known } from './state';

const known: Known = {
  schemes: ['page', 'dftl'],
  traces: ['msr-cambridge_hm_0_first1000.csv', 'teaching/gc.csv'],
  tabs: ['trace', 'settings', 'compare'],
  presets: ['teaching'],
};
const good = {
  scheme: 'dftl',
  trace: { shipped: 'teaching/gc.csv' },
  config: { device: { blocks: 64 } },
  at: [5, 1],
  tab: 'compare',
  heat: true,
  compare: { schemes: ['page', 'dftl'], baseline: 'page' },
};

function refusal(raw: unknown): string {
  try {
    parseShared(raw, known);
  } catch (e) {
    expect(e).toBeInstanceOf(ShareError);
    return (e as Error).message;
  }
  throw new Error('expected a ShareError');
}

describe('parseShared', () => {
  it('keeps a good link whole', () => {
    const upload = {
      ...good,
      trace: { upload: { name: 'mine.csv', hash: 'a'.repeat(64), size: 12 } },
      parse: {
        format: 'msr',
        skipBadLines: true,
        maxRequests: 10,
        only: 'writes',
        fromS: 0,
        untilS: 1.5,
        timeScale: 0.5,
        blkparseEvent: 'Q',
        device: '0',
        timeUnit: 'us',
        sectorSize: 4096,
      },
    };
    expect(parseShared(good, known)).toEqual({ state: good, dropped: [] });
    expect(parseShared(upload, known)).toEqual({ state: upload, dropped: [] });
  });

  it('refuses wrong types', () => {
    expect(refusal({ ...good, scheme: 42 })).toMatch(/scheme is not a valid name: '42'/);
    expect(refusal({ ...good, trace: 'gc.csv' })).toMatch(/names no trace/);
    expect(refusal({ ...good, config: [1] })).toMatch(/settings are not a JSON object/);
    expect(refusal({ ...good, parse: { skipBadLines: 'yes' } })).toMatch(/skipBadLines is not true or false/);
    expect(refusal({ ...good, parse: { only: 'both' } })).toMatch(/only is not 'reads' or 'writes'/);
    expect(refusal({ ...good, parse: { eval: 'x' } })).toMatch(/unknown parser option 'eval'/);
    expect(refusal({ ...good, parse: { toString: 'x' } })).toMatch(/unknown parser option 'toString'/);
    expect(refusal({ ...good, parse: { timeUnit: '<b>' } })).toMatch(/time unit is not a valid name/);
  });

  it('refuses unknown schemes, traces and presets, naming them', () => {
    expect(refusal({ ...good, scheme: 'superftl' })).toMatch(
      /scheme 'superftl', which this FTL Lab does not have \(it has page, dftl\)/,
    );
    expect(refusal({ ...good, trace: { shipped: 'nope.csv' } })).toMatch(/'nope.csv' is not one of the shipped traces/);
    expect(refusal({ ...good, preset: 'bigger' })).toMatch(/preset 'bigger'/);
  });

  it('refuses trace names that would leave the traces folder or point elsewhere', () => {
    expect(refusal({ ...good, trace: { shipped: '../../secret' } })).toMatch(/not one of the shipped traces/);
    expect(refusal({ ...good, trace: { shipped: 'https://evil.example/x.csv' } })).toMatch(/not a valid name/);
  });

  it('refuses huge and non-finite numbers', () => {
    expect(refusal({ ...good, config: { device: { blocks: 1e300 } } })).toMatch(/device\.blocks is out of range/);
    expect(refusal({ ...good, config: { device: { blocks: 2 ** 60 } } })).toMatch(/device\.blocks is out of range/);
    expect(refusal({ ...good, parse: { maxRequests: -1 } })).toMatch(/maxRequests is not a whole number/);
    expect(refusal({ ...good, parse: { timeScale: 0 } })).toMatch(/timeScale is out of range/);
    expect(refusal({ ...good, trace: { upload: { name: 'a', hash: 'a'.repeat(64), size: 1e20 } } })).toMatch(
      /trace size is not a whole number/,
    );
  });

  it('shows bidirectional controls in an upload name as code points, so "…exe" cannot read as "…csv"', () => {
    const raw = { ...good, trace: { upload: { name: 'report\u202evsc.exe', hash: 'a'.repeat(64), size: 1 } } };
    const { state } = parseShared(raw, known);
    expect(state.trace).toEqual({ upload: { name: 'report<U+202E>vsc.exe', hash: 'a'.repeat(64), size: 1 } });
    const isolates = parseShared({ ...raw, trace: { upload: { ...raw.trace.upload, name: 'a\u2066b\u200fc' } } }, known)
      .state.trace;
    expect(isolates).toMatchObject({ upload: { name: 'a<U+2066>b<U+200F>c' } });
  });

  it('refuses bad hashes, control characters and over-deep or wide settings', () => {
    expect(refusal({ ...good, trace: { upload: { name: 'a', hash: 'xyz', size: 1 } } })).toMatch(
      /not a SHA-256 hash: 'xyz'/,
    );
    expect(refusal({ ...good, trace: { upload: { name: 'a\u0000b', hash: 'a'.repeat(64), size: 1 } } })).toMatch(
      /trace name is not a valid name/,
    );
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = { a: deep };
    expect(refusal({ ...good, config: deep })).toMatch(/nested too deeply/);
    expect(refusal({ ...good, config: { 'a b<': 1 } })).toMatch(/invalid key/);
    expect(refusal({ ...good, config: { scheme: 'page' } })).toMatch(/repeat the scheme/);
  });

  it('keeps script in strings as text (quoted in messages, never markup)', () => {
    const name = '<img src=x onerror=alert(1)><script>alert(1)</script>.csv';
    const r = parseShared({ ...good, trace: { upload: { name, hash: 'b'.repeat(64), size: 3 } } }, known);
    expect(r.state.trace).toEqual({ upload: { name, hash: 'b'.repeat(64), size: 3 } });
    expect(refusal({ ...good, scheme: '<script>alert(1)</script>' })).toContain("'<script>alert(1)</script>'");
  });

  it('drops a bad position, tab, heat or comparison with a note, keeping the experiment', () => {
    const r = parseShared(
      { ...good, at: [-1, 'x'], tab: '<b>', heat: 'yes', compare: { schemes: ['page', 'evil'] } },
      known,
    );
    expect(r.state).toEqual({ scheme: 'dftl', trace: good.trace, config: good.config });
    expect(r.dropped).toHaveLength(4);
    expect(r.dropped.join('; ')).toMatch(/position.*tab '<b>'.*heat 'yes'.*comparison/);
    expect(parseShared({ ...good, at: [1e300, 0] }, known).dropped[0]).toMatch(/position/);
    expect(parseShared({ ...good, compare: { schemes: ['page'], baseline: 'dftl' } }, known).dropped[0]).toMatch(
      /comparison/,
    );
  });
});
