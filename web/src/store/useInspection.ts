/**
 * A view asks the scheme's inspection a question (`InspectQuery`) and gets the answer where
 * the timeline stands, following it both ways. Each view holds its own answer (the store
 * caches answers by position and query), so several views can show different questions at
 * once; until a new answer arrives the view keeps its last one, as it would a frame.
 */
import { useEffect, useRef, useState } from 'react';
import { queryKey, type InspectQuery, type Inspection } from '../engine/inspection';
import { useSim, useStore } from './useSim';
import { useThrottled } from '../ui/useThrottled';

/** While playing, a view asks at most this often (ms): never every frame. */
export const INSPECT_PLAYING_EVERY_MS = 500;

/** The answer to `query` at the current position (`null` asks nothing; undefined until answered). */
export function useInspection(query: InspectQuery | null): Inspection | undefined {
  const store = useStore();
  const playing = useSim((s) => s.status === 'playing');
  const seq = useThrottled(
    useSim((s) => s.seq),
    INSPECT_PLAYING_EVERY_MS,
    playing,
  );
  const info = useSim((s) => s.info);
  const key = query && queryKey(query);
  const [held, setHeld] = useState<{ info: typeof info; inspection: Inspection }>();
  /** Asks are numbered, so a slow older answer never replaces a newer one. */
  const asked = useRef(0);
  const shown = useRef(0);

  useEffect(() => {
    if (!query) return;
    const n = ++asked.current;
    void store.inspect(query).then((inspection) => {
      if (!inspection || n < shown.current) return;
      shown.current = n;
      setHeld({ info, inspection });
    });
    // `query` is read through its key: a new object with the same fields asks nothing new.
  }, [seq, key, info, store]);

  return held && held.info === info && query ? held.inspection : undefined;
}
