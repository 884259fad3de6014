/**
 * The open lesson beside the views: the stop's text with the engine's facts filled in, its
 * question, Previous / Next, and the presenter view (the stop's view on the stage, the text
 * beside it in large type), which takes the bar's place while it is on.
 */
import { useStore } from '../store/useSim';
import { closeLesson, lessonState, openStop } from './lessonStore';
import { Presenter } from './Presenter';
import { StopHead, StopText } from './StopText';
import { useStop } from './useStop';
import './Lessons.css';

export function LessonBar() {
  const store = useStore();
  const { lesson, stop, presenter, s, atStop, facts } = useStop();
  if (!lesson || !s) return null;
  if (presenter) return <Presenter />;
  // Moving between stops keeps what the user has on the stage.
  const go = (i: number) => openStop(lesson, i, undefined, store.getState().stage);
  return (
    <aside className="lesson" aria-label={`Lesson: ${lesson.title}`} data-testid="lesson">
      <StopHead title={lesson.title} stop={stop} stops={lesson.stops.length} />
      <StopText s={s} atStop={atStop} facts={facts} />
      <nav className="lesson__nav">
        <button type="button" onClick={() => go(stop - 1)} disabled={stop === 0}>
          ← Previous stop
        </button>
        <button type="button" onClick={() => go(stop + 1)} disabled={stop + 1 >= lesson.stops.length}>
          Next stop →
        </button>
        {!atStop && (
          <button type="button" onClick={() => go(stop)}>
            Back to this stop
          </button>
        )}
        <button type="button" onClick={() => lessonState.update({ presenter: true })}>
          Presenter view
        </button>
        <button type="button" onClick={closeLesson}>
          Close lesson
        </button>
      </nav>
    </aside>
  );
}
