import { useSim, useStore } from '../store/useSim';

/** A progress bar for work the user waits on for more than half a second, with a stop button. */
export function BusyBar() {
  const store = useStore();
  const busy = useSim((s) => s.busy);
  if (!busy) return null;
  const known = busy.total > 0;
  return (
    <div className="busy" role="status" aria-live="polite">
      <span>{busy.label}…</span>
      <progress max={known ? busy.total : undefined} value={known ? busy.done : undefined} aria-label={busy.label} />
      {known && <span className="busy__pct">{Math.floor((100 * busy.done) / busy.total)} %</span>}
      <button type="button" onClick={() => store.cancel()} aria-keyshortcuts="Escape" title="Stop (Esc)">
        Stop
      </button>
    </div>
  );
}
