/**
 * The demand-paged family's translation-page traffic, from the engine's metrics
 * (`translation_pages`, present only for schemes with a mapping cache): reads and writes of
 * translation pages by cause, in the engine's cause order and words (`vocab.tpage_causes`),
 * the flash reads a mapping miss costs, and bloom-filter false positives.
 */
import type { Code } from '../../engine/protocol';

/** `metrics.translation_pages` as the engine serialises it (engine `TranslationMetrics`). */
export interface TranslationMetrics {
  reads: Record<string, number>;
  writes: Record<string, number>;
  extra_reads_per_miss: number;
  bloom_false_positives: number;
}

/** One cause's row. */
export interface CauseRow {
  id: string;
  label: string;
  reads: number;
  writes: number;
}

/** What the counters view shows of a scheme's translation pages. */
export interface TranslationView {
  /** Causes with any traffic so far, in the engine's order. */
  rows: CauseRow[];
  reads: number;
  writes: number;
  extraReadsPerMiss: number;
  bloomFalsePositives: number;
}

/**
 * The view of `m` (undefined for a scheme that reports none), with the causes' labels from
 * `causes`. A cause the metrics name but the vocabulary lacks keeps its id as label, so an
 * engine cause added later still shows.
 */
export function translationView(m: TranslationMetrics | undefined, causes: Code[]): TranslationView | undefined {
  if (!m) return undefined;
  const ids = [
    ...causes.map((c) => c.id),
    ...Object.keys({ ...m.reads, ...m.writes }).filter((id) => !causes.some((c) => c.id === id)),
  ];
  const rows = ids
    .map((id) => ({
      id,
      label: causes.find((c) => c.id === id)?.label ?? id.replace(/_/g, ' '),
      reads: m.reads[id] ?? 0,
      writes: m.writes[id] ?? 0,
    }))
    .filter((r) => r.reads > 0 || r.writes > 0);
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  return {
    rows,
    reads: sum(m.reads),
    writes: sum(m.writes),
    extraReadsPerMiss: m.extra_reads_per_miss,
    bloomFalsePositives: m.bloom_false_positives,
  };
}
