/**
 * What each comparison chart draws, read from the engine's metrics objects and nothing else
 * (unit tests check every drawn number against them). One function per chart; `CHARTS` lists
 * them for the picker. Runs come in legend order; `keys` gives each scheme's name and colour.
 */
import type { RunMetrics } from '../engine/metrics';
import type { SchemeKey } from './legend';
import type { Panel, PanelGroup, PanelsData } from './grouped';
import type { Line, LinesData } from './lines';

export type Keys = Map<string, { name: string; color: string }>;

function schemes(runs: RunMetrics[], keys: Keys): SchemeKey[] {
  return runs.map((m) => ({
    id: m.scheme,
    name: keys.get(m.scheme)?.name ?? m.scheme,
    color: keys.get(m.scheme)?.color ?? '#888',
  }));
}

/** A group of one bar per run that has a value (`get` returns undefined when it has none). */
function group(runs: RunMetrics[], id: string, label: string, get: (m: RunMetrics) => number | undefined): PanelGroup {
  return { id, label, bars: runs.flatMap((m) => (get(m) == null ? [] : [{ scheme: m.scheme, value: get(m)! }])) };
}

/** Panels without an empty group, and without empty panels. */
function panels(title: string, runs: RunMetrics[], keys: Keys, list: Panel[]): PanelsData {
  const kept = list
    .map((p) => ({ ...p, groups: p.groups.filter((g) => g.bars.length) }))
    .filter((p) => p.groups.length);
  return { title, panels: kept, schemes: schemes(runs, keys) };
}

/** Mapping and buffer hit ratios (0–1), for the schemes that have those caches. */
export function hitRatios(runs: RunMetrics[], keys: Keys): PanelsData {
  return panels('Hit ratios', runs, keys, [
    {
      id: 'hit',
      label: 'Hit ratio',
      unit: '',
      top: 1,
      groups: [
        group(runs, 'mapping', 'Mapping cache', (m) => m.mapping?.hit_ratio),
        group(runs, 'buffer', 'Data buffer', (m) => m.buffer?.hit_ratio),
      ],
    },
  ]);
}

const OPS = [
  { field: 'page_reads', label: 'Flash reads', unit: 'pages' },
  { field: 'page_writes', label: 'Flash programs', unit: 'pages' },
  { field: 'erases', label: 'Erases', unit: 'blocks' },
] as const;

/** Flash reads, programs and erases by purpose (purposes 0 in every run are left out). */
export function flashByPurpose(runs: RunMetrics[], keys: Keys): PanelsData {
  const purposes: string[] = [];
  for (const m of runs) for (const p of Object.keys(m.flash.by_purpose)) if (!purposes.includes(p)) purposes.push(p);
  return panels(
    'Flash operations by purpose',
    runs,
    keys,
    OPS.map((op) => ({
      id: op.field,
      label: op.label,
      unit: op.unit,
      groups: purposes
        .filter((p) => runs.some((m) => (m.flash.by_purpose[p]?.[op.field] ?? 0) > 0))
        .map((p) => group(runs, p, p, (m) => m.flash.by_purpose[p]?.[op.field])),
    })),
  );
}

/** Valid-page copies (GC) and the write amplification factor. */
export function copiesAndWaf(runs: RunMetrics[], keys: Keys): PanelsData {
  return panels('Valid-page copies and WAF', runs, keys, [
    {
      id: 'copies',
      label: 'Valid-page copies',
      unit: 'pages',
      groups: [group(runs, 'copies', 'Valid-page copies', (m) => m.gc.valid_copies)],
    },
    { id: 'waf', label: 'WAF', unit: 'programs per host page', groups: [group(runs, 'waf', 'WAF', (m) => m.waf)] },
  ]);
}

/** Response-time percentiles of all requests (log axis: they span decades). */
export function percentiles(runs: RunMetrics[], keys: Keys): PanelsData {
  const r = (m: RunMetrics) => m.response_us;
  return panels('Response-time percentiles', runs, keys, [
    {
      id: 'percentiles',
      label: 'Response time',
      unit: 'µs',
      log: true,
      groups: [
        group(runs, 'p50', 'p50', (m) => r(m).p50),
        group(runs, 'p90', 'p90', (m) => r(m).p90),
        group(runs, 'p99', 'p99', (m) => r(m).p99),
        group(runs, 'p999', 'p99.9', (m) => r(m).p999),
        group(runs, 'max', 'max', (m) => r(m).max),
      ],
    },
  ]);
}

/** The worst response of all requests, of reads and of writes (an op without requests is left out). */
export function worstCase(runs: RunMetrics[], keys: Keys): PanelsData {
  const op = (m: RunMetrics, k: 'read' | 'write') => {
    const d = m.response_by_op_us?.[k];
    return d && (d.count ?? 1) > 0 ? d.max : undefined;
  };
  return panels('Worst case', runs, keys, [
    {
      id: 'worst',
      label: 'Worst response',
      unit: 'µs',
      groups: [
        group(runs, 'all', 'All requests', (m) => m.response_us.max),
        group(runs, 'read', 'Reads', (m) => op(m, 'read')),
        group(runs, 'write', 'Writes', (m) => op(m, 'write')),
      ],
    },
  ]);
}

/** The response-time CDF: share of requests answered within x µs (log x). */
export function responseCdf(runs: RunMetrics[], keys: Keys): LinesData {
  const lines: Line[] = runs.map((m) => ({
    scheme: m.scheme,
    points: (m.response_cdf_us ?? []).filter((c) => c.us > 0).map((c) => ({ x: c.us, y: c.p })),
  }));
  return {
    title: 'Response-time CDF',
    x: { label: 'Response time', unit: 'µs', log: true },
    y: { label: 'Share of requests', unit: '', top: 1 },
    lines: lines.filter((l) => l.points.length),
    schemes: schemes(runs, keys),
  };
}

const X_TRACE = { label: 'Requests served', unit: 'requests' };

/** Mean response time per window of the trace (the window's worst on hover). */
export function responseOverTrace(runs: RunMetrics[], keys: Keys): LinesData {
  const lines: Line[] = runs.map((m) => ({
    scheme: m.scheme,
    points: (m.series ?? []).map((p) => ({
      x: p.requests_done,
      y: p.mean_response_us,
      note: `max ${p.max_response_us.toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`,
    })),
  }));
  return {
    title: 'Response time over the trace',
    x: X_TRACE,
    y: { label: 'Mean response per window', unit: 'µs', log: true },
    lines: lines.filter((l) => l.points.length),
    schemes: schemes(runs, keys),
  };
}

/** Erased blocks at the end of each window. */
export function freeBlocksOverTrace(runs: RunMetrics[], keys: Keys): LinesData {
  const lines: Line[] = runs.map((m) => ({
    scheme: m.scheme,
    points: (m.series ?? []).map((p) => ({ x: p.requests_done, y: p.free_blocks })),
  }));
  return {
    title: 'Free blocks over the trace',
    x: X_TRACE,
    y: { label: 'Free (erased) blocks', unit: 'blocks' },
    lines: lines.filter((l) => l.points.length),
    schemes: schemes(runs, keys),
  };
}

export const RAM_STYLES = [
  { label: 'mapping', dash: '' },
  { label: 'buffer', dash: '5 3' },
];

/**
 * RAM the scheme holds over the trace, split into mapping information (solid) and buffered
 * data (dashed; drawn for schemes that buffered anything), in KiB. Schemes that do not
 * report a split are left out.
 */
export function ramOverTrace(runs: RunMetrics[], keys: Keys): LinesData {
  const kib = (b: number) => b / 1024;
  const lines: Line[] = runs.flatMap((m) => {
    const pts = (m.series ?? []).filter((p) => p.ram);
    if (!pts.length) return [];
    const mapping: Line = {
      scheme: m.scheme,
      style: 'mapping',
      points: pts.map((p) => ({ x: p.requests_done, y: kib(p.ram!.mapping_bytes) })),
    };
    const buffered = pts.some((p) => p.ram!.buffer_bytes > 0);
    return buffered
      ? [
          mapping,
          {
            scheme: m.scheme,
            style: 'buffer',
            points: pts.map((p) => ({ x: p.requests_done, y: kib(p.ram!.buffer_bytes) })),
          },
        ]
      : [mapping];
  });
  return {
    title: 'RAM over the trace',
    x: X_TRACE,
    // Log: a page map's whole table dwarfs a demand cache's few entries.
    y: { label: 'RAM held', unit: 'KiB', log: true },
    lines,
    schemes: schemes(runs, keys),
    styles: RAM_STYLES.filter((s) => lines.some((l) => l.style === s.label)),
  };
}

/** A chart of the picker: bars (panels) or lines, from the runs. */
export type ChartSpec = { id: string; label: string } & (
  | { kind: 'panels'; data: (runs: RunMetrics[], keys: Keys) => PanelsData }
  | { kind: 'lines'; data: (runs: RunMetrics[], keys: Keys) => LinesData }
);

/** The charts after the baseline-normalised bars, in picker order. */
export const CHARTS: ChartSpec[] = [
  { id: 'hit-ratios', label: 'Hit ratios', kind: 'panels', data: hitRatios },
  { id: 'flash-ops', label: 'Flash operations by purpose', kind: 'panels', data: flashByPurpose },
  { id: 'copies-waf', label: 'Valid-page copies and WAF', kind: 'panels', data: copiesAndWaf },
  { id: 'percentiles', label: 'Response-time percentiles', kind: 'panels', data: percentiles },
  { id: 'worst-case', label: 'Worst case', kind: 'panels', data: worstCase },
  { id: 'cdf', label: 'Response-time CDF', kind: 'lines', data: responseCdf },
  { id: 'response-trace', label: 'Response time over the trace', kind: 'lines', data: responseOverTrace },
  { id: 'free-blocks', label: 'Free blocks over the trace', kind: 'lines', data: freeBlocksOverTrace },
  { id: 'ram', label: 'RAM over the trace', kind: 'lines', data: ramOverTrace },
];
