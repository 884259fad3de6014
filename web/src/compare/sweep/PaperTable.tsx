import { useEffect, useState } from 'react';
import { getTrace, listTraces, type LibraryEntry } from '../../traces/library';
import type { Agreement, ExperimentInfo, ReportRow } from './types';

function range([lo, hi]: [number, number]): string {
  const f = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return Math.abs(hi - lo) < 0.05 ? f(lo) : `${f(lo)} – ${f(hi)}`;
}

/** A row's agreement as a mark and its words (the engine's `agreement`). */
export function agreementMark(a: Agreement | undefined): { mark: string; text: string } {
  const factor =
    a?.factor != null && Number.isFinite(a.factor) ? ` (×${a.factor.toFixed(1)} from the paper's range)` : '';
  switch (a?.status) {
    case 'agrees':
      return { mark: '✓', text: a.within != null ? `agrees within ×${a.within}${factor}` : 'agrees in direction' };
    case 'direction':
      return { mark: '≈', text: `agrees in direction, not within ×${a.within}${factor}` };
    case 'disagrees':
      return { mark: '✗', text: 'does not agree' };
    case 'value':
      return { mark: '·', text: `a single value, no direction to compare${factor}` };
    default:
      return { mark: '…', text: 'runs not finished' };
  }
}

/** The paper's numbers beside ours, with whether they agree, and what differs in trace and setup. */
export function PaperTable({ info, rows }: { info: ExperimentInfo; rows: ReportRow[] | null }) {
  return (
    <section className="sweep__paper" aria-label="Paper numbers beside ours">
      <h3>
        {info.title} <small>({info.source})</small>
      </h3>
      {info.missing_schemes.length > 0 && <p>Not in the engine yet (skipped): {info.missing_schemes.join(', ')}.</p>}
      <table className="compare__table" data-testid="paper-table">
        <thead>
          <tr>
            <th>Reported (%)</th>
            <th>Paper</th>
            <th>Ours</th>
            <th>Agreement</th>
            <th>Paper's traces</th>
            <th>Ours covers</th>
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((r) => {
            const { mark, text } = agreementMark(r.agreement);
            return (
              <tr key={r.what} data-agreement={r.agreement?.status}>
                <th scope="row">{r.what}</th>
                <td>{range(r.paper)}</td>
                <td>{r.ours ? range(r.ours) : '–'}</td>
                <td title={text}>
                  <span aria-hidden="true">{mark}</span> {text}
                  {r.agreement?.reason && <div className="sweep__why">Why: {r.agreement.reason}</div>}
                </td>
                <td>{r.paper_on}</td>
                <td>{r.note}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="sweep__diff">
        <strong>Differences:</strong> {info.differences}
      </p>
      {info.series && info.series.some((s) => s.options.length > 0) && (
        <ul className="sweep__series" aria-label="Compared series">
          {info.series.map((s) => (
            <li key={s.id}>
              <strong>{s.id}</strong>: {s.label}
              {s.options.length > 0 && <code> ({s.options.join(', ')})</code>}
            </li>
          ))}
        </ul>
      )}
      <ul className="sweep__traces">
        {info.traces.map((t) => (
          <li key={t.id}>
            <strong>{t.id}</strong>
            {t.kind === 'generated' && <em> (synthetic)</em>}
            {t.carries_effect ? ' [rows]' : ''}: {t.stands_in_for}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Bring your own trace: a file per trace slot of experiment `info` (the user's copy of the
 * paper's trace, the whole MSR hm_0 say), uploaded or picked from the trace library, read
 * whole in place of the shipped excerpt or stand-in; the report then counts it as carrying
 * the effect.
 */
export function TraceSlots({
  info,
  files,
  onChange,
  disabled,
}: {
  info: ExperimentInfo;
  files: Record<string, File>;
  onChange: (files: Record<string, File>) => void;
  disabled: boolean;
}) {
  const [library, setLibrary] = useState<LibraryEntry[]>([]);
  useEffect(() => {
    listTraces().then(setLibrary, () => setLibrary([]));
  }, []);
  const put = (id: string, f: File | undefined) => {
    const next = { ...files };
    if (f) next[id] = f;
    else delete next[id];
    onChange(next);
  };
  return (
    <fieldset className="sweep__slots" disabled={disabled}>
      <legend>Your own traces (optional)</legend>
      {info.traces.map((t) => (
        <label key={t.id}>
          {t.id}
          {t.kind === 'generated' ? ' (synthetic)' : ''}:{' '}
          <input type="file" aria-label={`Your trace for ${t.id}`} onChange={(e) => put(t.id, e.target.files?.[0])} />
          {library.length > 0 && (
            <select
              aria-label={`Library trace for ${t.id}`}
              value=""
              onChange={(e) => {
                const hash = e.target.value;
                if (hash) void getTrace(hash).then((s) => put(t.id, s?.file));
              }}
            >
              <option value="">or from the library…</option>
              {library.map((l) => (
                <option key={l.hash} value={l.hash}>
                  {l.name}
                </option>
              ))}
            </select>
          )}
          {files[t.id] && (
            <small>
              {' '}
              using your {files[t.id].name}{' '}
              <button type="button" onClick={() => put(t.id, undefined)}>
                clear
              </button>
            </small>
          )}
        </label>
      ))}
      {info.param === 'footprint_utilization' && (
        <small>
          On the footprint axis each device is sized around your trace's own footprint (measured before the runs), as
          the CLI's --trace-file does.
        </small>
      )}
    </fieldset>
  );
}
