import type { AriaAttributes } from 'react';
import type { RunMetrics } from '../engine/metrics';
import { formatValue, ratio, valueAt, type Column } from './metrics';

export interface ResultsTableProps {
  runs: RunMetrics[];
  columns: Column[];
  baseline: string | null;
  sort: { column: string; dir: 1 | -1 } | null;
  onSort(column: string): void;
  names: Map<string, { name: string; color: string }>;
}

/** Rows of `runs` in the table's sort order (missing values last either way). */
export function sortedRuns(runs: RunMetrics[], sort: ResultsTableProps['sort']): RunMetrics[] {
  if (!sort) return runs;
  const key = (m: RunMetrics) => (sort.column === 'scheme' ? m.scheme : valueAt(m, sort.column));
  return [...runs].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
    return (x < y ? -1 : x > y ? 1 : 0) * sort.dir;
  });
}

/**
 * One row per finished run, one column per metric; each header sorts (again: the other way).
 * Beside each value, its ratio to the baseline scheme's.
 */
export function ResultsTable({ runs, columns, baseline, sort, onSort, names }: ResultsTableProps) {
  const base = runs.find((m) => m.scheme === baseline);
  const ariaSort = (id: string): AriaAttributes['aria-sort'] =>
    sort?.column === id ? (sort.dir === 1 ? 'ascending' : 'descending') : undefined;
  const head = (id: string, text: string, unit?: string) => (
    <th key={id} scope="col" aria-sort={ariaSort(id)}>
      <button type="button" onClick={() => onSort(id)} title={`Sort by ${text}`}>
        {text}
        {unit ? <span className="compare__unit"> ({unit})</span> : null}
        {sort?.column === id ? (sort.dir === 1 ? ' ▲' : ' ▼') : null}
      </button>
    </th>
  );
  return (
    <div className="compare__tablewrap" tabIndex={0} role="region" aria-label="Comparison results">
      <table className="compare__table" data-testid="compare-results">
        <thead>
          <tr>
            {head('scheme', 'Scheme')}
            {columns.map((c) => head(c.id, c.label, c.unit))}
          </tr>
        </thead>
        <tbody>
          {sortedRuns(runs, sort).map((m) => (
            <tr key={m.scheme}>
              <th scope="row" title={names.get(m.scheme)?.name}>
                <span
                  className="compare__swatch"
                  style={{ background: names.get(m.scheme)?.color }}
                  aria-hidden="true"
                />
                {m.scheme}
                {m.scheme === baseline ? <span className="compare__unit"> (baseline)</span> : null}
              </th>
              {columns.map((c) => {
                const v = valueAt(m, c.id);
                const r = m.scheme === baseline || !base ? null : ratio(v, valueAt(base, c.id));
                return (
                  <td key={c.id} data-column={c.id}>
                    {formatValue(v, c)}
                    {r != null ? <span className="compare__ratio"> {r.toFixed(2)}×</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
