import type { ExperimentInfo, ReportRow } from './types';

function range([lo, hi]: [number, number]): string {
  const f = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return Math.abs(hi - lo) < 0.05 ? f(lo) : `${f(lo)} – ${f(hi)}`;
}

/** The paper's numbers beside ours, with what differs in trace and setup. */
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
            <th>Paper's traces</th>
            <th>Ours covers</th>
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((r) => (
            <tr key={r.what}>
              <th scope="row">{r.what}</th>
              <td>{range(r.paper)}</td>
              <td>{r.ours ? range(r.ours) : '–'}</td>
              <td>{r.paper_on}</td>
              <td>{r.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="sweep__diff">
        <strong>Differences:</strong> {info.differences}
      </p>
      <ul className="sweep__traces">
        {info.traces.map((t) => (
          <li key={t.id}>
            <strong>{t.id}</strong>: {t.stands_in_for}
          </li>
        ))}
      </ul>
    </section>
  );
}
