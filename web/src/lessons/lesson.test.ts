import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWasm, shippedTrace } from '../test/wasmNode';
import {
  MAX_LOOKAHEAD,
  fillText,
  isRight,
  lessonOfStop,
  parseLesson,
  presenterStage,
  stopState,
  wafAheadProblem,
  type Answer,
} from './lesson';

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

  it("a presented stop's link puts the stop's view on the stage; the grid needs no section", () => {
    const lesson = parseLesson(JSON.parse(readFileSync(join(dir, 'rftl-partial-gc.json'), 'utf8')));
    const stage = presenterStage(lesson.stops[1]);
    expect(stage).toEqual({ main: 'request' });
    expect(stopState(lesson, 1, true, stage).sections).toEqual({
      lesson: { id: 'rftl-partial-gc', stop: 1 },
      stage: { main: 'request' },
    });
    expect(stopState(lesson, 1, true, { main: 'grid' }).sections).not.toHaveProperty('stage');
    // A stop without a stage view, or naming none the app has, presents the block grid.
    expect(presenterStage({ at: [1, 0], text: '' })).toEqual({ main: 'grid' });
    expect(presenterStage({ at: [1, 0], text: '', views: { stage: 'nope' } })).toEqual({ main: 'grid' });
  });

  it("bounds the WAF question's N by the trace's end and the engine's look-ahead", () => {
    expect(wafAheadProblem(100, 500)).toBeUndefined();
    expect(wafAheadProblem(500, 500)).toBeUndefined();
    expect(wafAheadProblem(501, 500)).toBe('The trace has only 500 more requests from here: choose N up to 500.');
    expect(wafAheadProblem(MAX_LOOKAHEAD + 1, 10 ** 7)).toMatch(/at most 200,000/);
    expect(wafAheadProblem(0, 500)).toMatch(/at least 1/);
    expect(wafAheadProblem(2.5, 500)).toMatch(/whole number/);
    expect(wafAheadProblem(1, 0)).toMatch(/trace has ended/);
  });

  it("a lesson's WAF question needs its N", () => {
    const withQuestion = (question: unknown) => ({
      id: 'x',
      title: 't',
      experiment: { scheme: 'page', trace: { shipped: 'a' } },
      stops: [{ at: [1, 0], text: '', question }],
    });
    expect(() => parseLesson(withQuestion({ kind: 'waf_after', prompt: 'p' }), 'x.json')).toThrow(
      /x.json: stop 1's waf_after question needs "n"/,
    );
    expect(() => parseLesson(withQuestion({ kind: 'waf_after', n: 0, prompt: 'p' }))).toThrow(/"n"/);
    expect(() => parseLesson(withQuestion({ kind: 'waf_after', n: 7, prompt: 'p' }))).not.toThrow();
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

  it('answers the WAF question N requests ahead, and refuses N past its look-ahead', () => {
    const waf = (n: number) =>
      JSON.parse(sim.lessonJson(JSON.stringify({ at: [0, 0], question: { kind: 'waf_after', n } }))) as Answer;
    expect(waf(11)).toMatchObject({ found: true, answer: 1.13, reveal: [11, 0] });
    expect(waf(5)).toMatchObject({ found: true, reveal: [5, 0] });
    // teaching/gc.csv has 12 requests.
    expect(waf(20)).toMatchObject({ found: false, answer: null });
    expect(waf(20).explain).toContain('only 12 more requests');
    expect(() => waf(MAX_LOOKAHEAD + 1)).toThrow(/1 to 200000/);
  });

  it('refuses a malformed query by name', () => {
    expect(() => sim.lessonJson(JSON.stringify({ at: [0, 0], question: { kind: 'nope' } }))).toThrow(/lesson query/);
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
