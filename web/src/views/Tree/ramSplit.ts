/**
 * The RAM split panel's data: mapping information and buffered data the running
 * scheme holds over the requests served so far, in KiB, with a rule at the timeline's
 * position. Read from the engine's `metrics.series` at that position and nothing else: the
 * series lives in the simulation state, so after a step back it is the series as it was.
 * Schemes that report no split (no `ram` on the points) get no panel.
 */
import type { SeriesPoint } from '../../engine/metrics';
import { RAM_STYLES } from '../../charts/data';
import type { SchemeKey } from '../../charts/legend';
import type { LinesData } from '../../charts/lines';

/** The panel's lines, or undefined when no point so far has a split (none closed yet, or a scheme without one). */
export function ramSplitSoFar(
  series: readonly SeriesPoint[] | undefined,
  done: number,
  scheme: SchemeKey,
): LinesData | undefined {
  const pts = (series ?? []).filter((p) => p.ram && p.requests_done <= done);
  if (!pts.length) return undefined;
  const kib = (b: number) => b / 1024;
  const lines = [
    {
      scheme: scheme.id,
      style: 'mapping',
      points: pts.map((p) => ({ x: p.requests_done, y: kib(p.ram!.mapping_bytes) })),
    },
    {
      scheme: scheme.id,
      style: 'buffer',
      points: pts.map((p) => ({ x: p.requests_done, y: kib(p.ram!.buffer_bytes) })),
    },
  ];
  return {
    title: `RAM split of ${scheme.name} so far`,
    x: { label: 'Requests served', unit: 'requests' },
    y: { label: 'RAM held', unit: 'KiB' },
    lines,
    schemes: [scheme],
    styles: RAM_STYLES,
    marker: { x: done, label: `Now: ${done.toLocaleString('en-US')} requests served` },
  };
}

/** The latest point's split in words (the panel's caption), or '' before the first window closes. */
export function ramSplitWords(series: readonly SeriesPoint[] | undefined, done: number): string {
  const last = (series ?? []).filter((p) => p.ram && p.requests_done <= done).at(-1);
  if (!last) return 'No window of the trace has closed yet.';
  const kib = (b: number) => `${(b / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB`;
  return `After ${last.requests_done.toLocaleString('en-US')} requests: mapping ${kib(last.ram!.mapping_bytes)}, buffer ${kib(last.ram!.buffer_bytes)}.`;
}
