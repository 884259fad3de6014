import { useRef, useState } from 'react';
import { useSim, useStore } from '../store/useSim';

/**
 * The scrubber over the whole trace: dragging seeks (the engine restores the nearest
 * checkpoint and replays), one seek in flight at a time, the latest position winning.
 */
export function Scrubber() {
  const store = useStore();
  const pos = useSim((s) => s.pos);
  const total = useSim((s) => s.info?.total ?? 0);
  const status = useSim((s) => s.status);
  const [drag, setDrag] = useState<number | null>(null);
  const inflight = useRef(false);
  const pending = useRef<number | null>(null);

  const seek = (target: number) => {
    if (inflight.current) {
      pending.current = target;
      return;
    }
    inflight.current = true;
    void store.seek(target).finally(() => {
      inflight.current = false;
      const next = pending.current;
      pending.current = null;
      if (next !== null) seek(next);
      else setDrag(null);
    });
  };

  const value = drag ?? pos.request;
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    <div className="scrubber">
      <input
        type="range"
        min={0}
        max={Math.max(1, total)}
        step={1}
        value={value}
        disabled={status === 'loading' || status === 'error' || total === 0}
        aria-label="Timeline position (requests served)"
        aria-valuetext={`${fmt(value)} of ${fmt(total)} requests served`}
        data-testid="scrubber"
        onChange={(e) => {
          const v = Number(e.target.value);
          setDrag(v);
          seek(v);
        }}
      />
      <span className="scrubber__text" aria-live="off">
        <strong>{fmt(value)}</strong> / {fmt(total)} requests
        {pos.op > 0 && drag === null && (
          <span className="scrubber__op">
            {' '}
            · request #{fmt(pos.request)}, op {pos.op} of {pos.ops}
          </span>
        )}
      </span>
    </div>
  );
}
