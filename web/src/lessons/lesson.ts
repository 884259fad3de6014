/**
 * A lesson file (docs/lessons.md) in the app: its checked shape, its stops' links, and a
 * stop's text with the engine's facts filled in. The engine checks shipped lessons against
 * itself (core-wasm/engine/tests/lessons.rs); a file loaded from disk is checked for shape here.
 */
import { encodeFragment } from '../share/codec';
import type { SharedState } from '../share/state';
import { stageView } from '../store/stageViews';
import { DEFAULT_STAGE, type StageChoice } from '../store/state';

export type QuestionKind = 'gc_victim' | 'gc_copies' | 'cmt_hit' | 'merge_kind' | 'waf_after';

export interface Question {
  kind: QuestionKind;
  /** Requests ahead (waf_after). */
  n?: number;
  prompt: string;
}

export interface LessonStop {
  at: [number, number];
  /** `tab`: the side tab to open; `stage`: the view the presenter puts on the stage (a stage view id; default the block grid). */
  views?: { tab?: string; stage?: string; highlight?: string };
  text: string;
  expect?: Record<string, unknown>;
  question?: Question;
}

export interface Lesson {
  id: string;
  title: string;
  summary?: string;
  experiment: Pick<SharedState, 'scheme' | 'preset' | 'config' | 'options'> & { trace: { shipped: string } };
  stops: LessonStop[];
}

/** The engine's answer to a question (engine `lesson::Answer`). */
export interface Answer {
  found: boolean;
  answer: number | string | null;
  reveal: [number, number];
  request: number | null;
  explain: string;
}

export const QUESTION_KINDS: { kind: QuestionKind; label: string }[] = [
  { kind: 'gc_victim', label: 'Which block will GC pick next?' },
  { kind: 'gc_copies', label: 'How many valid pages will the next victim hold?' },
  { kind: 'cmt_hit', label: 'Will the next read hit the mapping cache (CMT)?' },
  { kind: 'merge_kind', label: 'Which kind will the next merge be?' },
  { kind: 'waf_after', label: 'What will the WAF be after N more requests?' },
];

/** Requests the engine serves at most to answer a question (engine `lesson::MAX_LOOKAHEAD`). */
export const MAX_LOOKAHEAD = 200_000;

/** The WAF question asked `n` requests ahead. */
export const wafPrompt = (n: number) =>
  `What will the WAF be after ${n.toLocaleString('en-US')} more request${n === 1 ? '' : 's'}? (two decimals)`;

/**
 * Why `n` cannot be asked as the WAF question's requests ahead with `left` requests of the
 * trace still to come (undefined: it can).
 */
export function wafAheadProblem(n: number, left: number): string | undefined {
  const fmt = (x: number) => x.toLocaleString('en-US');
  if (!Number.isSafeInteger(n) || n < 1) return 'N must be a whole number of requests, at least 1.';
  if (n > MAX_LOOKAHEAD) return `N can be at most ${fmt(MAX_LOOKAHEAD)} (the engine looks no further ahead).`;
  if (left < 1) return 'The trace has ended here: step back to ask about the requests to come.';
  if (n > left) return `The trace has only ${fmt(left)} more requests from here: choose N up to ${fmt(left)}.`;
  return undefined;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isPos = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((x) => Number.isSafeInteger(x) && x >= 0);

/** Checks untrusted JSON as a lesson; throws an Error naming what is wrong and where. */
export function parseLesson(v: unknown, where = 'the lesson'): Lesson {
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (!isObj(v)) fail('is not a JSON object');
  const o = v as Record<string, unknown>;
  if (typeof o.id !== 'string' || !/^[a-z0-9-]{1,64}$/.test(o.id))
    fail('"id" must be lower-case letters, digits and dashes');
  if (typeof o.title !== 'string' || !o.title) fail('"title" is missing');
  const e = o.experiment;
  if (!isObj(e) || typeof e.scheme !== 'string' || !isObj(e.trace) || typeof e.trace.shipped !== 'string')
    fail('"experiment" needs a scheme and trace.shipped');
  if (!Array.isArray(o.stops) || o.stops.length === 0 || o.stops.length > 200) fail('"stops" must list 1 to 200 stops');
  (o.stops as unknown[]).forEach((s, i) => {
    if (!isObj(s) || !isPos(s.at)) fail(`stop ${i + 1} needs "at": [requests, operations]`);
    const st = s as Record<string, unknown>;
    if (typeof st.text !== 'string') fail(`stop ${i + 1} has no "text"`);
    if (st.question !== undefined) {
      const q = st.question;
      if (!isObj(q) || !QUESTION_KINDS.some((k) => k.kind === q.kind) || typeof q.prompt !== 'string')
        fail(`stop ${i + 1}'s question needs a known "kind" and a "prompt"`);
      const n = (q as Record<string, unknown>).n;
      if (
        (q as Record<string, unknown>).kind === 'waf_after' &&
        !(typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= MAX_LOOKAHEAD)
      )
        fail(`stop ${i + 1}'s waf_after question needs "n", the requests ahead, from 1 to ${MAX_LOOKAHEAD}`);
    }
  });
  return v as unknown as Lesson;
}

/** The stop's text with `{fact}` filled from the engine's facts (a missing fact stays as written). */
export function fillText(text: string, facts: Record<string, unknown> | null): string {
  return text.replace(/\{([a-z_]+)\}/g, (all, key: string) => {
    const v = facts?.[key];
    if (v === undefined || v === null) return all;
    return typeof v === 'number' ? v.toLocaleString('en-US') : Array.isArray(v) ? v.join(', ') : String(v);
  });
}

/** What the presenter puts on the stage at stop `s`: its `views.stage` alone, else the block grid. */
export function presenterStage(s: LessonStop | undefined): StageChoice {
  const id = s?.views?.stage;
  return id && stageView(id) ? { main: id } : DEFAULT_STAGE;
}

/**
 * The link state of a lesson's stop: its experiment at the stop's position, tab and lesson,
 * and `stage` (what is on the stage; absent or the default: the block grid).
 */
export function stopState(lesson: Lesson, stop: number, shipped: boolean, stage?: StageChoice): SharedState {
  const s = lesson.stops[stop];
  const { scheme, preset, config, options, trace } = lesson.experiment;
  const state: SharedState = { scheme, trace: { shipped: trace.shipped } };
  if (preset) state.preset = preset;
  if (config) state.config = config;
  if (options) state.options = options;
  if (s.at[0] || s.at[1]) state.at = s.at;
  if (s.views?.tab) state.tab = s.views.tab;
  state.sections = { lesson: shipped ? { id: lesson.id, stop } : { lesson, stop } };
  if (stage && (stage.main !== DEFAULT_STAGE.main || stage.side))
    state.sections.stage = { main: stage.main, ...(stage.side ? { side: stage.side } : {}) };
  return state;
}

/** The fragment (`#ftl1.…`) that opens `lesson` at `stop` (with `stage` on the stage). */
export function stopFragment(lesson: Lesson, stop: number, shipped: boolean, stage?: StageChoice): string {
  return encodeFragment(stopState(lesson, stop, shipped, stage));
}

/** Whether `guess` (as typed or clicked) is the engine's answer (WAF within 0.01). */
export function isRight(kind: QuestionKind, guess: string, answer: Answer): boolean {
  if (answer.answer === null) return false;
  if (typeof answer.answer === 'number') {
    const g = Number(guess.trim());
    if (!Number.isFinite(g) || guess.trim() === '') return false;
    return kind === 'waf_after' ? Math.abs(g - answer.answer) <= 0.01 + 1e-9 : g === answer.answer;
  }
  return guess.trim().toLowerCase() === answer.answer;
}

/**
 * "Save this stop": the experiment of a link's state and the position on screen as a lesson
 * file of one stop, ready to load or to paste into a lesson's stops. A lesson must run on a
 * shipped trace (it is checked against the engine and works offline): an upload is refused.
 */
export function lessonOfStop(state: SharedState, pos: { request: number; op: number }, tab?: string): Lesson {
  if (!('shipped' in state.trace))
    throw new Error(
      'A lesson runs on a shipped trace (it works offline and its test runs it); this experiment runs on an upload.',
    );
  const experiment: Lesson['experiment'] = { scheme: state.scheme, trace: { shipped: state.trace.shipped } };
  if (state.preset) experiment.preset = state.preset;
  if (state.config) experiment.config = state.config;
  if (state.options) experiment.options = state.options;
  const stop: LessonStop = {
    at: [pos.request, pos.op],
    text: 'What the class should see here; engine numbers as {placeholders} (docs/lessons.md).',
  };
  if (tab) stop.views = { tab };
  return { id: 'my-lesson', title: 'My lesson', experiment, stops: [stop] };
}
