/**
 * The open lesson beside the views: the stop's text with the engine's facts filled in, its
 * question, Previous / Next, and the presenter view (which shows the stop's view large).
 */
import type { ComponentType } from 'react';
import { SIDE_PANELS } from '../app/panels';
import { BlockGrid } from '../views/BlockGrid/BlockGrid';
import type { LessonStop } from './lesson';
import { closeLesson, lessonState, openStop } from './lessonStore';
import { Presenter } from './Presenter';
import { StopText } from './StopText';
import { useStop } from './useStop';
import './Lessons.css';

/** The view a stop puts on the presenter's stage: `views.stage` (a side panel's id), else the block grid. */
export function presenterView(s: LessonStop): ComponentType {
  const id = s.views?.stage;
  return SIDE_PANELS.find((p) => p.id === id)?.Component ?? BlockGrid;
}

export function LessonBar() {
  const { lesson, stop, presenter, s, atStop, facts } = useStop();
  if (!lesson || !s) return null;
  return (
    <aside className="lesson" aria-label={`Lesson: ${lesson.title}`} data-testid="lesson">
      <header className="lesson__head">
        <h2>{lesson.title}</h2>
        <span className="lesson__count">
          Stop {stop + 1} of {lesson.stops.length}
        </span>
      </header>
      {!presenter && <StopText s={s} atStop={atStop} facts={facts} />}
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
        <button type="button" onClick={() => lessonState.update({ presenter: true })}>
          Presenter view
        </button>
        <button type="button" onClick={closeLesson}>
          Close lesson
        </button>
      </nav>
      {presenter && <Presenter View={presenterView(s)} />}
    </aside>
  );
}
