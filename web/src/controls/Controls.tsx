import { useEffect } from 'react';
import { SPEEDS, speedLabel } from '../store/experiment';
import { useSim, useStore } from '../store/useSim';
import './Controls.css';

/** True when a key press belongs to a form field rather than to the timeline. */
function typingInField(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
}

/** Play / Pause / Step / Reset and speed, with keyboard shortcuts (Space, →, R). */
export function Controls() {
  const store = useStore();
  const status = useSim((s) => s.status);
  const speed = useSim((s) => s.speed);
  const playing = status === 'playing';
  const canStep = status === 'ready';

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInField(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ') {
        e.preventDefault();
        store.togglePlay();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        void store.step(1);
      } else if (e.key === 'r' || e.key === 'R') {
        void store.reset();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  return (
    <div className="controls" role="toolbar" aria-label="Timeline">
      <button
        type="button"
        className="controls__play"
        onClick={() => store.togglePlay()}
        disabled={!(playing || canStep)}
        aria-keyshortcuts="Space"
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={() => void store.step(1)} disabled={!canStep} aria-keyshortcuts="ArrowRight">
        Step
      </button>
      <button type="button" onClick={() => void store.reset()} disabled={status === 'loading'} aria-keyshortcuts="R">
        Reset
      </button>
      <label className="controls__speed">
        Speed
        <select value={String(speed)} onChange={(e) => store.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={String(s)}>
              {speedLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <span className="controls__keys" aria-hidden="true">
        Space play/pause · → step · R reset
      </span>
    </div>
  );
}
