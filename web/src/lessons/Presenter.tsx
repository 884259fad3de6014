/**
 * Presenter view for a projector (1280 × 720): the stop's view goes on the app's stage
 * (`views.stage`, else the block grid) and the lesson's text sits beside it in large type
 * (the app hides everything else while `presenter` is set), driven by the keyboard only:
 * → / PageDown next stop, ← / PageUp previous, R reveal (Quiz), Esc leave. Leaving, however
 * it happens, puts back the stage the user had.
 */
import { useEffect } from 'react';
import { useStore } from '../store/useSim';
import { presenterStage, type Lesson } from './lesson';
import { lessonState, openStop } from './lessonStore';
import { REVEAL_EVENT } from './Quiz';
import { StopHead, StopText } from './StopText';
import { useStop } from './useStop';

/** Opens stop `i` of `lesson` (clamped) with that stop's view on the stage. */
function present(lesson: Lesson, i: number) {
  const at = Math.max(0, Math.min(i, lesson.stops.length - 1));
  openStop(lesson, at, undefined, presenterStage(lesson.stops[at]));
}

export function Presenter() {
  const store = useStore();
  const { lesson, stop, s, atStop, facts } = useStop();

  // The stage before presenting, put back when the presenter goes (Esc, or the lesson closes).
  useEffect(() => {
    const before = store.getState().stage;
    return () => store.setStage(before);
  }, [store]);
  const main = presenterStage(s).main;
  useEffect(() => store.setStage({ main }), [store, main]);

  useEffect(() => {
    if (!lesson) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.key === 'ArrowRight' || e.key === 'PageDown') present(lesson, stop + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'PageUp') present(lesson, stop - 1);
      else if (e.key === 'Escape') lessonState.update({ presenter: false });
      else if (e.key === 'r' || e.key === 'R') window.dispatchEvent(new Event(REVEAL_EVENT));
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [lesson, stop]);

  if (!lesson || !s) return null;
  return (
    <aside
      className="presenter lesson"
      aria-label={`Presenting: ${lesson.title}`}
      data-testid="presenter"
      data-stage={main}
    >
      <StopHead title={lesson.title} stop={stop} stops={lesson.stops.length} />
      <StopText s={s} atStop={atStop} facts={facts} />
      <p className="lesson__keys">→ next stop · ← previous · R reveal · Esc leave</p>
    </aside>
  );
}
