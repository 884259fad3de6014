/**
 * Taking a comparison away: CSV (one row per run, a column per metric named by its path in
 * the metrics object) and JSON (`{"results": [...]}`, the shape `ftl run --json` prints).
 */
import type { RunMetrics } from '../engine/metrics';
import { valueAt, type Column } from './metrics';

/** A finished run: the engine's metrics object and its JSON text as received. */
export interface Finished {
  metrics: RunMetrics;
  json: string;
}

/** A CSV field, quoted when it holds a separator, a quote or a line break (RFC 4180). */
function field(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The runs as CSV: `scheme,trace,requests,<column paths>`; a missing value is empty.
 * `lead` puts columns of its own first (a sweep's trace and parameter value), row by row.
 */
export function toCsv(
  runs: Finished[],
  columns: Column[],
  lead?: { head: string[]; row: (i: number) => string[] },
): string {
  const head = [...(lead?.head ?? []), 'scheme', 'trace.name', 'trace.requests', ...columns.map((c) => c.id)];
  const rows = runs.map(({ metrics: m }, i) => [
    ...(lead?.row(i) ?? []),
    m.scheme,
    m.trace.name,
    String(m.trace.requests),
    ...columns.map((c) => {
      const v = valueAt(m, c.id);
      return v == null ? '' : String(v);
    }),
  ]);
  return [head, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The runs as `ftl run --json` prints them: `{"results": [metrics, ...]}`. */
export function toJson(runs: Finished[]): string {
  return `{"results":[${runs.map((r) => r.json).join(',')}]}`;
}

/** Offers `text` as a file download named `name`. */
export function download(name: string, text: string, type: string) {
  downloadBlob(name, new Blob([text], { type }));
}

/** Offers `blob` as a file download named `name`. */
export function downloadBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
