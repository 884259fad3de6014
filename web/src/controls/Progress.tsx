import { useSim, useStore } from '../store/useSim';

/** Requests served out of the trace, as a progress bar with its numbers. */
export function Progress() {
  const store = useStore();
  useSim((s) => s.frame);
  const total = useSim((s) => s.info?.total ?? 0);
  const done = store.counter('requests_done');
  const value = Number.isFinite(done) ? done : 0;
  return (
    <div className="progress">
      <progress max={Math.max(1, total)} value={value} aria-label="Requests served" />
      <span>
        {value.toLocaleString('en-US')} / {total.toLocaleString('en-US')} requests
      </span>
    </div>
  );
}
