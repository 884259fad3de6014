/**
 * The open lesson (if any) and its stop, as a share-link section: a shipped lesson travels by
 * id, one loaded from disk travels whole. Opening a stop writes its link into the address
 * bar; the share controller loads the experiment, seeks, opens the tab and restores this.
 */
import { Observable } from '../store/observable';
import type { SimStore } from '../store/store';
import type { ShareSection } from '../share/sections';
import type { StageChoice } from '../store/state';
import { parseLesson, stopFragment, type Answer, type Lesson, type Question } from './lesson';

export interface LessonView {
  lesson?: Lesson;
  stop: number;
  /** A lesson of public/lessons (by id in links). */
  shipped: boolean;
  presenter: boolean;
}

class LessonObservable extends Observable<LessonView> {
  update(patch: Partial<LessonView>) {
    this.set(patch);
  }
}

export const lessonState = new LessonObservable({ stop: 0, shipped: true, presenter: false });

const shippedCache = new Map<string, Lesson>();

/** A shipped lesson by id (public/lessons/ID.json, relative to the page: works offline). */
export async function fetchLesson(id: string): Promise<Lesson> {
  const hit = shippedCache.get(id);
  if (hit) return hit;
  const r = await fetch(`lessons/${encodeURIComponent(id)}.json`);
  if (!r.ok) throw new Error(`There is no lesson '${id}' (HTTP ${r.status}).`);
  const lesson = parseLesson(await r.json(), `lessons/${id}.json`);
  shippedCache.set(id, lesson);
  return lesson;
}

/**
 * Opens `lesson` at `stop`: writes the stop's link (the share controller follows it), with
 * `stage` on the stage (the stage the user has, so a stop does not take it away; the
 * presenter passes the stop's own view).
 */
export function openStop(lesson: Lesson, stop: number, shipped = lessonState.getState().shipped, stage?: StageChoice) {
  const at = Math.max(0, Math.min(stop, lesson.stops.length - 1));
  lessonState.update({ lesson, stop: at, shipped });
  window.location.hash = stopFragment(lesson, at, shipped, stage);
}

export function closeLesson() {
  lessonState.update({ lesson: undefined, stop: 0, presenter: false });
}

/** The share section `lesson`: `{id, stop}` or `{lesson, stop}`. */
export const lessonSection: ShareSection = {
  key: 'lesson',
  capture() {
    const { lesson, stop, shipped } = lessonState.getState();
    if (!lesson) return undefined;
    return shipped ? { id: lesson.id, stop } : { lesson, stop };
  },
  restore(value) {
    if (value === undefined) {
      if (lessonState.getState().lesson) lessonState.update({ lesson: undefined, stop: 0 });
      return undefined;
    }
    const v = value as { id?: unknown; lesson?: unknown; stop?: unknown };
    const stop = typeof v.stop === 'number' && Number.isSafeInteger(v.stop) && v.stop >= 0 ? v.stop : 0;
    if (v.lesson !== undefined) {
      try {
        const lesson = parseLesson(v.lesson, "the link's lesson");
        lessonState.update({ lesson, stop: Math.min(stop, lesson.stops.length - 1), shipped: false });
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    }
    if (typeof v.id !== 'string') return 'its lesson is not named';
    const current = lessonState.getState();
    if (current.lesson?.id === v.id && current.shipped) {
      lessonState.update({ stop: Math.min(stop, current.lesson.stops.length - 1) });
      return undefined;
    }
    fetchLesson(v.id).then(
      (lesson) => lessonState.update({ lesson, stop: Math.min(stop, lesson.stops.length - 1), shipped: true }),
      () => lessonState.update({ lesson: undefined, stop: 0 }),
    );
    return undefined;
  },
  subscribe(onChange) {
    return lessonState.subscribe(onChange);
  },
};

/** The engine's facts of the stop at `at` (null at the start). */
export async function stopFacts(store: SimStore, at: [number, number]): Promise<Record<string, unknown> | null> {
  const r = await store.client.request<'lesson'>({ type: 'lesson', query: JSON.stringify({ at }) });
  return JSON.parse(r.json) as Record<string, unknown> | null;
}

/** The engine's answer to `q` asked at timeline position `at`. */
export async function askEngine(
  store: SimStore,
  at: [number, number],
  q: Pick<Question, 'kind' | 'n'>,
): Promise<Answer> {
  const question = q.kind === 'waf_after' ? { kind: q.kind, n: q.n } : { kind: q.kind };
  const r = await store.client.request<'lesson'>({ type: 'lesson', query: JSON.stringify({ at, question }) });
  return JSON.parse(r.json) as Answer;
}

/** Downloads `data` as a JSON file. */
export function downloadJson(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2) + '\n'], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
