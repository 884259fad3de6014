import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import { fillText, isRight, lessonOfStop, parseLesson, stopState, type Answer } from './lesson';

const dir = join(process.cwd(), 'public/lessons');
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json');

describe('lesson files', () => {
  it('every shipped lesson has the shape the app reads', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) expect(() => parseLesson(JSON.parse(readFileSync(join(dir, f), 'utf8')), f)).not.toThrow();
  });

  it('a malformed lesson is refused, naming what is wrong', () => {
    expect(() =>
      parseLesson(
        {
          id: 'x',
          title: 't',
          experiment: { scheme: 'page', trace: { shipped: 'a' } },
          stops: [{ at: [1], text: '' }],
        },
        'x.json',
      ),
    ).toThrow(/x.json: stop 1 needs "at"/);
    expect(() => parseLesson([], 'y.json')).toThrow(/y.json: is not a JSON object/);
  });

  it('fills placeholders from facts and leaves unknown ones as written', () => {
    expect(fillText('block {gc_victim}, {copies} copies, {nope}', { gc_victim: 0, copies: 1234 })).toBe(
      'block 0, 1,234 copies, {nope}',
    );
  });

  it('a stop link carries the experiment, position, tab and lesson', () => {
    const lesson = parseLesson(JSON.parse(readFileSync(join(dir, 'page-gc.json'), 'utf8')));
    const s = stopState(lesson, 3, true);
    expect(s.at).toEqual(lesson.stops[3].at);
    expect(s.sections).toEqual({ lesson: { id: 'page-gc', stop: 3 } });
  });

  it('judges answers (WAF within 0.01)', () => {
    const a = (answer: number | string): Answer => ({ found: true, answer, reveal: [1, 0], request: 0, explain: '' });
    expect(isRight('gc_victim', '0', a(0))).toBe(true);
    expect(isRight('gc_victim', '', a(0))).toBe(false);
    expect(isRight('waf_after', '1.135', a(1.13))).toBe(true);
    expect(isRight('cmt_hit', 'Miss', a('miss'))).toBe(true);
    expect(isRight('cmt_hit', 'hit', a('miss'))).toBe(false);
  });
});

describe('the engine answers lesson queries (wasm)', () => {
  const wasm = loadWasm();
  const config = JSON.stringify({
    scheme: 'page',
    device: { blocks: 8, pages_per_block: 8 },
    gc: { reserve_blocks: 1 },
    record_events: true,
  });
  const sim = new wasm.Simulation(config, new Uint8Array(shippedTrace('teaching/gc.csv')), 'teaching/gc.csv', null);

  it('answers which block GC picks next without moving the simulation', () => {
    const a = JSON.parse(sim.lessonJson(JSON.stringify({ at: [0, 0], question: { kind: 'gc_victim' } }))) as Answer;
    expect(a).toMatchObject({ found: true, answer: 0, reveal: [9, 1], request: 9 });
    expect(sim.cursor()).toBe(0);
  });

  it("reports a stop's facts, at a position other than where it stands", () => {
    const f = JSON.parse(sim.lessonJson(JSON.stringify({ at: [11, 0] }))) as Record<string, unknown>;
    expect(f).toMatchObject({ number: 11, gc_victim: 1, copies: 4 });
    expect(JSON.parse(sim.lessonJson(JSON.stringify({ at: [0, 0] })))).toBeNull();
  });

  it('refuses a malformed query by name', () => {
    expect(() => sim.lessonJson(JSON.stringify({ at: [0, 0], question: { kind: 'nope' } }))).toThrow(/lesson query/);
  });
});

describe('glossary hovers', () => {
  it('explains the first appearance of each abbreviation only', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { Terms } = await import('./Terms');
    const html = renderToStaticMarkup(
      createElement(Terms, { text: 'The CMT maps LPNs; a CMT miss reads a page. WAF is 1.1.' }),
    );
    expect(html.match(/<abbr/g)).toHaveLength(3);
    expect(html).toContain('title="Cached mapping table');
    expect(html).toContain('>LPNs</abbr>');
  });
});

describe('save this stop', () => {
  it('turns a link state and position into a lesson file that parses, and refuses an upload', () => {
    const lesson = lessonOfStop(
      {
        scheme: 'dftl',
        preset: 'teaching',
        config: { ram: { bytes: 64 } },
        trace: { shipped: 'teaching/gc.csv' },
        at: [3, 2],
      },
      { request: 3, op: 2 },
      'cache',
    );
    expect(parseLesson(lesson)).toMatchObject({
      experiment: { scheme: 'dftl', preset: 'teaching', config: { ram: { bytes: 64 } } },
      stops: [{ at: [3, 2], views: { tab: 'cache' } }],
    });
    expect(() =>
      lessonOfStop({ scheme: 'page', trace: { upload: { name: 'a.csv', hash: 'x', size: 1 } } }, { request: 0, op: 0 }),
    ).toThrow(/shipped trace/);
  });
});
