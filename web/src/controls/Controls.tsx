import { useEffect, useMemo } from 'react';
import { SPEEDS, speedLabel } from '../store/speeds';
import { useSim, useStore } from '../store/useSim';
import { shortcutFor, shortcuts } from './keymap';
import './Controls.css';

/** The speed menu's labels, made once: the toolbar re-renders every frame while playing. */
const SPEED_LABELS = SPEEDS.map(speedLabel);

/** A toolbar button with its shortcut in the tooltip and in aria-keyshortcuts. */
function Btn(props: {
  label: string;
  icon?: string;
  keys: string;
  title: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={props.className}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-keyshortcuts={props.keys}
      title={`${props.title} (${props.keys.replace('ArrowRight', '→').replace('ArrowLeft', '←')})`}
    >
      {props.icon && <span aria-hidden="true" className="icon" data-icon={props.icon} />}
      {props.label}
    </button>
  );
}

/**
 * The timeline's controls: play/pause, step and step back by request and by operation,
 * jumps to the next GC / miss / merge, speed, reset and help. Also installs the keyboard
 * shortcuts (keymap.ts) for the whole page.
 */
export function Controls() {
  const store = useStore();
  const status = useSim((s) => s.status);
  const speed = useSim((s) => s.speed);
  const pos = useSim((s) => s.pos);
  const info = useSim((s) => s.info);
  const playing = status === 'playing';
  const live = status !== 'loading' && status !== 'error' && !!info;
  const atEnd = !!info && pos.request >= info.total && pos.op === 0;
  const atStart = pos.request === 0 && pos.op === 0;
  // Jumps come from the engine: every stop it knows, enabled where this scheme can produce it.
  const stops = info?.vocab.stops;
  const canStop = info?.spec.stops ?? [];
  const keymap = useMemo(() => shortcuts(stops ?? []), [stops]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = shortcutFor(e, keymap);
      if (!s) return;
      e.preventDefault();
      s.run(store);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, keymap]);

  return (
    <div className="controls" role="toolbar" aria-label="Timeline">
      <div className="controls__group">
        <Btn
          label="Start"
          icon="|◀"
          keys="Home"
          title="Go to the start of the trace"
          onClick={() => void store.seek(0)}
          disabled={!live || atStart}
        />
        <Btn
          label="Back"
          icon="◀◀"
          keys="ArrowLeft"
          title="Step back one request"
          onClick={() => void store.back(1)}
          disabled={!live || atStart}
        />
        <Btn
          label="Back op"
          icon="◀"
          keys=","
          title="Step back one flash operation"
          onClick={() => void store.stepOp(-1)}
          disabled={!live || atStart}
        />
        <button
          type="button"
          className="controls__play"
          onClick={() => store.togglePlay()}
          disabled={!live || (!playing && atEnd)}
          aria-keyshortcuts="Space"
          title="Play / pause (Space)"
        >
          <span aria-hidden="true" className="icon" data-icon={playing ? '❚❚' : '▶'} />
          {playing ? 'Pause' : 'Play'}
        </button>
        <Btn
          label="Step op"
          icon="▶"
          keys="."
          title="Step one flash operation"
          onClick={() => void store.stepOp(1)}
          disabled={!live || atEnd}
        />
        <Btn
          label="Step"
          icon="▶▶"
          keys="ArrowRight"
          title="Step one request"
          onClick={() => void store.step(1)}
          disabled={!live || atEnd}
        />
      </div>
      <div className="controls__group" aria-label="Jump to">
        {(stops ?? []).map((s) => (
          <Btn
            key={s.id}
            label={s.label}
            keys={s.key.toUpperCase()}
            title={s.doc}
            onClick={() => void store.jump(s.id)}
            disabled={!live || atEnd || !canStop.includes(s.id)}
          />
        ))}
      </div>
      <div className="controls__group">
        <label className="controls__speed">
          Speed
          <select value={speed} onChange={(e) => store.setSpeed(Number(e.target.value))} aria-keyshortcuts="+ -">
            {SPEED_LABELS.map((label, i) => (
              <option key={i} value={i}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <Btn
          label="Reset"
          keys="R"
          title="Reload the experiment from the start"
          onClick={() => void store.reset()}
          disabled={status === 'loading'}
        />
        <button
          type="button"
          className="controls__help"
          onClick={() => store.setHelp(true)}
          aria-keyshortcuts="?"
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
      </div>
    </div>
  );
}
