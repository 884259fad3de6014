import type { LessonStop } from './lesson';
import { useLesson } from './useLesson';

/**
 * The view a lesson stop points at (`views.highlight`), by view id: `victim` is the GC
 * victim, which the block grid outlines itself, so the grid is what the stage marks.
 */
export function highlightedView(stop: LessonStop | undefined): string | undefined {
  const h = stop?.views?.highlight;
  return h === 'victim' ? 'grid' : h || undefined;
}

/** The view the open lesson's stop points at, if any (re-rendering as the lesson moves). */
export function useLessonHighlight(): string | undefined {
  const { lesson, stop } = useLesson();
  return highlightedView(lesson?.stops[stop]);
}
