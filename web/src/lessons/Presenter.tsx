/**
 * Presenter view for a projector (1280 × 720): the stop's view large on the left, the
 * lesson's text beside it in large type, driven by the keyboard only: → / PageDown next stop,
 * ← / PageUp previous, R reveal (Quiz), Esc leave. It renders whatever view it is given, so a
 * stage can host the same lesson view.
 */
import { useEffect, type ComponentType } from 'react';
import { lessonState, openStop } from './lessonStore';
import { REVEAL_EVENT } from './Quiz';
import { StopText } from './StopText';
import { useStop } from './useStop';

export function Presenter({ View }: { View: ComponentType }) {
  const { lesson, stop, s, atStop, facts } = useStop();

  useEffect(() => {
    if (!lesson) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.key === 'ArrowRight' || e.key === 'PageDown') openStop(lesson, stop + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'PageUp') openStop(lesson, stop - 1);
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
    <div className="presenter" role="dialog" aria-label={`Presenting: ${lesson.title}`} data-testid="presenter">
      <div className="presenter__view">
        <View />
      </div>
      <aside className="presenter__text lesson">
        <header className="lesson__head">
          <h2>{lesson.title}</h2>
          <span className="lesson__count">
            Stop {stop + 1} of {lesson.stops.length}
          </span>
        </header>
        <StopText s={s} atStop={atStop} facts={facts} />
        <p className="lesson__keys">→ next stop · ← previous · R reveal · Esc leave</p>
      </aside>
    </div>
  );
}
