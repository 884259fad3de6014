/**
 * The open lesson beside the views: the stop's text with the engine's facts filled in, its
 * question, Previous / Next, and the presenter view (which shows the stop's view large).
 */
import type { ComponentType } from 'react';
import { BlockGrid } from '../views/BlockGrid/BlockGrid';
import type { LessonStop } from './lesson';
import { closeLesson, lessonState, openStop } from './lessonStore';
import { Presenter } from './Presenter';
import { StopText } from './StopText';
import { useStop } from './useStop';
import './Lessons.css';

/** A view the shell offers by id (its side panels), handed in so lessons need not know the shell. */
export interface NamedView {
  id: string;
  Component: ComponentType;
}

/** The view a stop puts on the presenter's stage: `views.stage` (one of `views`' ids), else the block grid. */
export function presenterView(s: LessonStop, views: readonly NamedView[]): ComponentType {
  const id = s.views?.stage;
  return views.find((p) => p.id === id)?.Component ?? BlockGrid;
}

export function LessonBar({ views }: { views: readonly NamedView[] }) {
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
      {presenter && <Presenter View={presenterView(s, views)} />}
    </aside>
  );
}
