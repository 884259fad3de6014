/**
 * How long the block grid animates a new view (GC copies flying, erases): the policy that
 * used to sit inside the component's effect, pure so it is tested.
 */
import type { Position } from '../../engine/protocol';
import type { Speed } from '../../store/speeds';
import type { GridHighlight } from './highlight';

/** One request's copies and erases, when shown alone (ms). */
export const REQUEST_ANIMATION_MS = 900;
/** One operation, when stepping operations (ms). */
export const OP_ANIMATION_MS = 450;
/** Shorter than this is not worth animating: drawn at once. */
const MIN_MS = 60;
/** While playing, an animation takes at most this share of the time between steps. */
const SHARE = 0.8;
/** Playing faster than this many requests per second, whole requests are not animated. */
const ANIMATE_REQUESTS_UP_TO = 20;

/** Milliseconds to animate `hl` at `pos` (0 = draw the end state at once). */
export function animationMs(pos: Position, hl: GridHighlight, speed: Speed, playing: boolean): number {
  if (hl.moves.length + hl.erased.length === 0) return 0;
  const perStep = 1000 / speed.perSecond;
  let ms = 0;
  if (pos.op > 0) ms = playing ? Math.min(OP_ANIMATION_MS, perStep * SHARE) : OP_ANIMATION_MS;
  else if (!playing || speed.perSecond <= ANIMATE_REQUESTS_UP_TO)
    ms = playing ? Math.min(REQUEST_ANIMATION_MS, perStep * SHARE) : REQUEST_ANIMATION_MS;
  return ms < MIN_MS ? 0 : ms;
}
