/**
 * A polite live region that tells screen-reader users where a move landed: the position and
 * the operation (or request) on screen. While playing it changes at most every few seconds,
 * so speech is not a flood; a single step is said at once.
 */
import type { RequestTrace } from '../engine/events';
import type { Position } from '../engine/protocol';
import { cacheVocabulary, describeRequest, type Vocabulary } from '../narration/narrate';
import { useSim } from '../store/useSim';
import { useThrottled } from '../ui/useThrottled';
import { linesOf } from '../views/Narration/lines';

/** Announcements while playing come at most this often (ms). */
export const PLAYING_ANNOUNCE_MS = 3000;

/** What the region says for a position (exported for tests). */
export function announcement(
  pos: Position,
  total: number,
  current: RequestTrace | null,
  ppb: number,
  vocab: Vocabulary,
): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (pos.op > 0 && current) {
    const line = linesOf(current, ppb, vocab).find((l) => pos.op - 1 >= l.first && pos.op - 1 <= l.last);
    return `Request ${n(pos.request + 1)} of ${n(total)}, ${describeRequest(current.request)}: operation ${pos.op} of ${pos.ops}. ${line?.text ?? ''}`.trim();
  }
  if (pos.request === 0) return `At the start: no request served yet, ${n(total)} to go.`;
  const what = current ? `: ${describeRequest(current.request)}` : '';
  return `${n(pos.request)} of ${n(total)} requests served. Last${what}.`;
}

export function Announcer() {
  const pos = useSim((s) => s.pos);
  const current = useSim((s) => s.current);
  const info = useSim((s) => s.info);
  const playing = useSim((s) => s.status === 'playing');
  const seq = useSim((s) => s.seq);
  const text = info
    ? announcement(pos, info.total, current, info.pagesPerBlock, cacheVocabulary(info.spec, info.vocab.page_kinds))
    : '';
  // Nothing is said before the first move (seq 1 is the load's view).
  const shown = useThrottled(seq > 1 ? text : '', PLAYING_ANNOUNCE_MS, playing);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {shown}
    </p>
  );
}
