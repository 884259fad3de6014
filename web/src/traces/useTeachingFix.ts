import { useEffect, useState } from 'react';
import type { Experiment } from '../store/experiment';
import type { SimStore } from '../store/store';
import type { Manifest } from './manifest';
import { deviceWords, onTeachingDevice } from './teachingDevice';

/** An offer to run a refused scheme on the teaching preset's device, in words. */
export interface TeachingFix {
  experiment: Experiment;
  device: string;
}

/**
 * When a scheme was refused on a teaching trace's tiny device: the same experiment on the
 * teaching preset's device (the one the teaching README uses), or undefined.
 */
export function useTeachingFix(
  store: SimStore,
  refused: Experiment | undefined,
  manifest: Manifest | undefined,
): TeachingFix | undefined {
  const [fix, setFix] = useState<TeachingFix>();
  useEffect(() => {
    setFix(undefined);
    if (!refused || !manifest) return;
    let alive = true;
    store.catalog().then(
      (c) => {
        const e = onTeachingDevice(refused, manifest.traces, c.presets);
        if (alive && e) setFix({ experiment: e, device: deviceWords(e.config.device as Record<string, unknown>) });
      },
      () => {}, // no offer without the presets; the refusal still shows
    );
    return () => {
      alive = false;
    };
  }, [refused, manifest, store]);
  return fix;
}
