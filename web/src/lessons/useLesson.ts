import { useSyncExternalStore } from 'react';
import { lessonState, type LessonView } from './lessonStore';

/** The open lesson, re-rendering on change. */
export function useLesson(): LessonView {
  return useSyncExternalStore(lessonState.subscribe, lessonState.getState);
}
