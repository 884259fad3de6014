/**
 * The comparison's columns: which numbers of the engine's metrics object (DESIGN §4, the
 * JSON of `ftl run --json`) the table, the chart and the CSV show. A column's id is the
 * number's path in that object, so an exported CSV names exactly where each value came from.
 * The per-purpose flash columns come from the purposes the results hold, not from a list.
 */

import type { RunMetrics } from '../engine/metrics';

/** One number per run. */
export interface Column {
  /** Path of the value in the metrics object (dot-separated). */
  id: string;
  label: string;
  /** Unit shown beside values and on chart axes ('' for counts and ratios). */
  unit: string;
  /** Table group heading. */
  group: string;
  /** Whether a smaller value is better (for the chart's reading aid). */
  lowerIsBetter: boolean;
}

const FIXED: Column[] = [
  { id: 'mapping.hit_ratio', label: 'Mapping hit ratio', unit: '', group: 'Hit ratios', lowerIsBetter: false },
  { id: 'buffer.hit_ratio', label: 'Buffer hit ratio', unit: '', group: 'Hit ratios', lowerIsBetter: false },
  { id: 'waf', label: 'WAF', unit: '', group: 'Writes', lowerIsBetter: true },
  { id: 'flash.erases', label: 'Erases', unit: 'blocks', group: 'Writes', lowerIsBetter: true },
  { id: 'gc.valid_copies', label: 'Valid copies', unit: 'pages', group: 'Writes', lowerIsBetter: true },
  { id: 'gc.runs', label: 'GC runs', unit: '', group: 'Writes', lowerIsBetter: true },
  { id: 'response_us.mean', label: 'Mean response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'response_us.p50', label: 'p50 response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'response_us.p90', label: 'p90 response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'response_us.p99', label: 'p99 response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'response_us.p999', label: 'p99.9 response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'response_us.max', label: 'Max response', unit: 'µs', group: 'Response', lowerIsBetter: true },
  { id: 'service_time_us.total', label: 'Service time (sum)', unit: 'µs', group: 'Service time', lowerIsBetter: true },
  { id: 'service_time_us.flash', label: 'Flash time', unit: 'µs', group: 'Service time', lowerIsBetter: true },
  { id: 'service_time_us.ram', label: 'RAM time', unit: 'µs', group: 'Service time', lowerIsBetter: true },
  { id: 'service_time_us.lru', label: 'LRU time', unit: 'µs', group: 'Service time', lowerIsBetter: true },
  { id: 'service_time_us.host', label: 'Host time', unit: 'µs', group: 'Service time', lowerIsBetter: true },
  {
    id: 'service_time_us.metadata',
    label: 'Metadata loading (seed 003)',
    unit: 'µs',
    group: 'Service time',
    lowerIsBetter: true,
  },
  {
    id: 'time_breakdown_us.metadata_share',
    label: 'Metadata-loading share (seed 003)',
    unit: '',
    group: 'Service time',
    lowerIsBetter: true,
  },
  { id: 'flash.page_reads', label: 'Flash reads', unit: 'pages', group: 'Flash', lowerIsBetter: true },
  { id: 'flash.page_writes', label: 'Flash programs', unit: 'pages', group: 'Flash', lowerIsBetter: true },
];

const PER_PURPOSE: { field: string; label: string; unit: string }[] = [
  { field: 'page_reads', label: 'reads', unit: 'pages' },
  { field: 'page_writes', label: 'programs', unit: 'pages' },
  { field: 'erases', label: 'erases', unit: 'blocks' },
];

/**
 * The columns for `runs`: the fixed ones some run has, then reads / programs / erases for
 * every purpose some run used (in the engine's order), skipping those 0 in every run.
 */
export function columnsFor(runs: RunMetrics[]): Column[] {
  const purposes: string[] = [];
  for (const m of runs) for (const p of Object.keys(m.flash.by_purpose)) if (!purposes.includes(p)) purposes.push(p);
  const extra: Column[] = [];
  for (const p of purposes)
    for (const f of PER_PURPOSE) {
      const id = `flash.by_purpose.${p}.${f.field}`;
      if (runs.some((m) => (valueAt(m, id) ?? 0) !== 0))
        extra.push({ id, label: `${p} ${f.label}`, unit: f.unit, group: 'Flash by purpose', lowerIsBetter: true });
    }
  // A column no run has a value for (a buffer hit ratio when no scheme has a buffer) is left out.
  const fixed = runs.length ? FIXED.filter((c) => runs.some((m) => valueAt(m, c.id) != null)) : FIXED;
  return [...fixed, ...extra];
}

/** The number at `path` in a metrics object, or null when the run has none there. */
export function valueAt(m: RunMetrics, path: string): number | null {
  let v: unknown = m;
  for (const k of path.split('.')) {
    if (v == null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[k];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** `value / base` for the baseline normalisation; null when either is missing or base is 0. */
export function ratio(value: number | null, base: number | null): number | null {
  if (value == null || base == null || base === 0) return null;
  return value / base;
}

/** A value for the table: ratios to 3 decimals, big counts with separators, times to 0.1. */
export function formatValue(v: number | null, col: Column): string {
  if (v == null) return '–';
  if (col.unit === 'µs') return v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}
