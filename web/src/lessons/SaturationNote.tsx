/**
 * On the main screen: says so when the device is saturated (the mean wait in the queue is at
 * least the mean service time, so the response chart measures the trace's load, not the FTL),
 * with the one-click alternative: replay the same experiment closed loop (each request
 * arrives when the one before it completes). A note over the corner of the screen, so it never
 * moves the layout.
 */
import { useEffect, useState } from 'react';
import { queueingNote } from '../narration/context';
import { useSim, useStore } from '../store/useSim';

export function SaturationNote() {
  const store = useStore();
  const seq = useSim((s) => s.seq);
  const status = useSim((s) => s.status);
  const info = useSim((s) => s.info);
  const experiment = useSim((s) => s.experiment);
  const [note, setNote] = useState<string | null>(null);
  // Dismissed for this experiment (a new one may be saturated again).
  const [dismissed, setDismissed] = useState<unknown>(undefined);
  const closed = (experiment.config as { timing?: unknown }).timing === 'closed';

  useEffect(() => {
    if (status === 'playing' || status === 'loading' || !info || closed) return setNote(null);
    let live = true;
    store.client
      .request<'metrics'>({ type: 'metrics' })
      .then((r) => {
        const m = JSON.parse(r.json);
        const n = queueingNote({
          meanResponseUs: m.response_us?.mean ?? 0,
          serviceTotalUs: m.service_time_us?.total ?? 0,
          requestsDone: m.requests_done ?? 0,
          capacityBytes: info.blocks * info.pagesPerBlock * info.pageBytes,
        });
        if (live) setNote(n);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [store, seq, status, info, closed]);

  if (!note || dismissed === experiment) return null;
  const closedLoop = () => void store.load({ ...experiment, config: { ...experiment.config, timing: 'closed' } });
  return (
    <p className="saturation" role="note" data-testid="saturation">
      <b>The device is saturated.</b> {note}{' '}
      <button type="button" onClick={closedLoop}>
        Replay closed loop
      </button>{' '}
      <button
        type="button"
        className="saturation__close"
        aria-label="Dismiss the saturation note"
        onClick={() => setDismissed(experiment)}
      >
        ×
      </button>
    </p>
  );
}
