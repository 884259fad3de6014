/**
 * The request on screen and how many of its operations are applied, for views that redraw
 * per request (the cache levels, the tree): while playing they follow at most every
 * INSPECT_PLAYING_EVERY_MS, as their inspection answers do (never every frame).
 */
import type { RequestTrace } from '../engine/events';
import { useThrottled } from '../ui/useThrottled';
import { INSPECT_PLAYING_EVERY_MS } from './useInspection';
import { useSim } from './useSim';

export function useShownRequest(): { current: RequestTrace | null; op: number; playing: boolean } {
  const playing = useSim((s) => s.status === 'playing');
  const current = useThrottled(
    useSim((s) => s.current),
    INSPECT_PLAYING_EVERY_MS,
    playing,
  );
  const op = useThrottled(
    useSim((s) => s.pos.op),
    INSPECT_PLAYING_EVERY_MS,
    playing,
  );
  return { current, op, playing };
}
