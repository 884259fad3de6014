/**
 * The open lesson beside the views: the stop's text with the engine's facts filled in, its
 * question, and Previous / Next. In presenter view (for a projector) it takes the right of the
 * screen in large type, and the keyboard drives it: → / PageDown next stop, ← / PageUp
 * previous, R reveal, Esc leave.
 */
import { useEffect, useState } from 'react';
import { useSim, useStore } from '../store/useSim';
import { fillText } from './lesson';
import { closeLesson, lessonState, openStop, stopFacts } from './lessonStore';
import { Quiz } from './Quiz';
import { Terms } from './Terms';
import { useLesson } from './useLesson';
import './Lessons.css';

export function LessonBar() {
  const store = useStore();
  const { lesson, stop, presenter } = useLesson();
  const pos = useSim((s) => s.pos);
  const status = useSim((s) => s.status);
  const [facts, setFacts] = useState<Record<string, unknown> | null>(null);
  const s = lesson?.stops[stop];
  const atStop = !!s && pos.request === s.at[0] && pos.op === s.at[1];

  useEffect(() => {
    if (!s || !atStop || status === 'loading') return;
    let live = true;
    stopFacts(store, s.at).then(
      (f) => live && setFacts(f),
      () => live && setFacts(null),
    );
    return () => {
      live = false;
    };
  }, [store, s, atStop, status]);

  useEffect(() => {
    if (!lesson || !presenter) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.key === 'ArrowRight' || e.key === 'PageDown') openStop(lesson, stop + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'PageUp') openStop(lesson, stop - 1);
      else if (e.key === 'Escape') lessonState.update({ presenter: false });
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [lesson, stop, presenter]);

  if (!lesson || !s) return null;
  return (
    <aside className={`lesson${presenter ? ' lesson--presenter' : ''}`} aria-label={`Lesson: ${lesson.title}`} data-testid="lesson">
      <header className="lesson__head">
        <h2>{lesson.title}</h2>
        <span className="lesson__count">
          Stop {stop + 1} of {lesson.stops.length}
        </span>
      </header>
      <p className="lesson__text" data-testid="lesson-text">
        {atStop ? <Terms text={fillText(s.text, facts)} /> : `Moving to request ${s.at[0].toLocaleString('en-US')}…`}
      </p>
      {s.question && <Quiz question={s.question} askedAt={s.at[0]} />}
      <nav className="lesson__nav">
        <button type="button" onClick={() => openStop(lesson, stop - 1)} disabled={stop === 0}>
          ← Previous stop
        </button>
        <button type="button" onClick={() => openStop(lesson, stop + 1)} disabled={stop + 1 >= lesson.stops.length}>
          Next stop →
        </button>
        {!atStop && (
          <button type="button" onClick={() => openStop(lesson, stop)}>
            Back to this stop
          </button>
        )}
        <button type="button" onClick={() => lessonState.update({ presenter: !presenter })} aria-pressed={presenter}>
          {presenter ? 'Leave presenter view' : 'Presenter view'}
        </button>
        <button type="button" onClick={closeLesson}>
          Close lesson
        </button>
      </nav>
      {presenter && <p className="lesson__keys">→ next stop · ← previous · R reveal · Esc leave</p>}
    </aside>
  );
}
