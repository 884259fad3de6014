import type { ParseChoices } from '../engine/traceStream';
import { FormatField, TimeUnitField } from './parserFields';

/** A labelled number input; empty = undefined. */
function NumberField(p: {
  label: string;
  value?: number;
  placeholder?: string;
  onChange: (v: number | undefined) => void;
}) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <input
        type="number"
        min={0}
        step="any"
        placeholder={p.placeholder ?? 'any'}
        value={p.value ?? ''}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </label>
  );
}

/** Props of the parser options. */
export interface ParserOptionsProps {
  choices: ParseChoices;
  onChange(c: ParseChoices): void;
  /** Formats the engine parses. */
  formats: string[];
  disabled: boolean;
  /** Reloads the experiment with the options as they stand. */
  onReload(): void;
}

/** The trace parser's options (format, filters, units), folded away until asked for. */
export function ParserOptions({ choices, onChange, formats, disabled, onReload }: ParserOptionsProps) {
  const set = (patch: Partial<ParseChoices>) => onChange({ ...choices, ...patch });
  return (
    <details className="trace-panel__options">
      <summary>Parser options</summary>
      <FormatField
        label="Format"
        value={choices.format}
        formats={formats}
        emptyWords="detect automatically"
        onChange={(format) => set({ format })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={!!choices.skipBadLines}
          onChange={(e) => set({ skipBadLines: e.target.checked })}
        />
        Skip malformed lines (and count them)
      </label>
      <NumberField
        label="First requests only"
        value={choices.maxRequests}
        placeholder="all"
        onChange={(v) => set({ maxRequests: v })}
      />
      <label className="field">
        <span>Device / volume / ASU</span>
        <input
          type="text"
          placeholder="all"
          value={choices.device ?? ''}
          onChange={(e) => set({ device: e.target.value || undefined })}
        />
      </label>
      <label className="field">
        <span>Requests</span>
        <select
          value={choices.only ?? ''}
          onChange={(e) => set({ only: (e.target.value || undefined) as ParseChoices['only'] })}
        >
          <option value="">reads, writes and trims</option>
          <option value="reads">reads only</option>
          <option value="writes">writes only</option>
        </select>
      </label>
      <label className="field">
        <span>blkparse events</span>
        <select
          value={choices.blkparseEvent ?? 'D'}
          onChange={(e) => set({ blkparseEvent: e.target.value === 'Q' ? 'Q' : undefined })}
        >
          <option value="D">D — dispatched to the device (default)</option>
          <option value="Q">Q — queued, as the application issued them</option>
        </select>
      </label>
      <div className="trace-panel__row">
        <TimeUnitField
          label="Time unit"
          value={choices.timeUnit}
          emptyWords="the format's own"
          onChange={(timeUnit) => set({ timeUnit })}
        />
        <NumberField
          label="Sector size (bytes)"
          value={choices.sectorSize}
          placeholder="512"
          onChange={(v) => set({ sectorSize: v })}
        />
      </div>
      <div className="trace-panel__row">
        <NumberField label="From (s)" value={choices.fromS} onChange={(v) => set({ fromS: v })} />
        <NumberField label="Until (s)" value={choices.untilS} onChange={(v) => set({ untilS: v })} />
        <NumberField
          label="Time scale"
          value={choices.timeScale}
          placeholder="1"
          onChange={(v) => set({ timeScale: v })}
        />
      </div>
      <button type="button" disabled={disabled} onClick={onReload}>
        Reload with these options
      </button>
    </details>
  );
}
