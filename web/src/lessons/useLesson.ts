import { useSyncExternalStore } from 'react';
import { lessonState, type LessonView } from './lessonStore';

/** The open lesson, re-rendering on change. */
export function useLesson(): LessonView {
  return useSyncExternalStore(lessonState.subscribe, lessonState.getState);
}

/** Whether the presenter view is on (the app then shows only the stage and the lesson's text). */
export function usePresenting(): boolean {
  const { lesson, presenter } = useLesson();
  return presenter && !!lesson;
}
