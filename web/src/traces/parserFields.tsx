/** The per-file parser choices as form fields, shared by the parser options and the upload preview. */

/** The engine's time units (TimeUnit::name), with their wording. */
export const TIME_UNITS: [string, string][] = [
  ['ps', 'picoseconds'],
  ['ns', 'nanoseconds'],
  ['us', 'microseconds'],
  ['ms', 'milliseconds'],
  ['s', 'seconds'],
  ['filetime', 'FILETIME ticks (100 ns)'],
];

/** Time unit `u` in words. */
export const unitWords = (u: string | null) => TIME_UNITS.find(([k]) => k === u)?.[1] ?? u ?? '';

/** Props of a choice among named values; '' (undefined) leaves it to the parser. */
interface ChoiceProps {
  label: string;
  value?: string;
  /** What the empty choice says ("detect automatically", "the format's own"). */
  emptyWords: string;
  onChange(v: string | undefined): void;
}

/** The trace format: one of the engine's, or detected. */
export function FormatField({ formats, ...p }: ChoiceProps & { formats: string[] }) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <select value={p.value ?? ''} onChange={(e) => p.onChange(e.target.value || undefined)}>
        <option value="">{p.emptyWords}</option>
        {formats.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The unit of the trace's times: one of the engine's, or the format's own. */
export function TimeUnitField(p: ChoiceProps) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <select value={p.value ?? ''} onChange={(e) => p.onChange(e.target.value || undefined)}>
        <option value="">{p.emptyWords}</option>
        {TIME_UNITS.map(([k, words]) => (
          <option key={k} value={k}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}
