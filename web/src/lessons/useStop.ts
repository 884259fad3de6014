import { useEffect, useState } from 'react';
import { useSim, useStore } from '../store/useSim';
import { stopFacts } from './lessonStore';
import { useLesson } from './useLesson';

/** The open lesson's stop, whether the timeline stands on it, and the engine's facts there. */
export function useStop() {
  const store = useStore();
  const view = useLesson();
  const pos = useSim((s) => s.pos);
  const status = useSim((s) => s.status);
  const [facts, setFacts] = useState<Record<string, unknown> | null>(null);
  const experiment = useSim((s) => s.experiment);
  const s = view.lesson?.stops[view.stop];
  // The lesson's own experiment (not one the user changed to since) at the stop's position.
  const own =
    !!view.lesson &&
    !experiment.file &&
    experiment.traceName === view.lesson.experiment.trace.shipped &&
    experiment.config.scheme === view.lesson.experiment.scheme;
  const atStop = own && !!s && pos.request === s.at[0] && pos.op === s.at[1];

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

  return { ...view, s, atStop, facts };
}
