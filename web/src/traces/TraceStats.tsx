import type { TraceParse } from '../engine/protocol';
import { bytes, count, duration, percent } from './format';
import { HeatStrip, SizeHistogram } from './SizeHistogram';

/** A trace's statistics, as the engine computed them while parsing. */
export function TraceStats({ parse }: { parse: TraceParse }) {
  const s = parse.summary;
  const r = parse.report;
  const n = Math.max(1, s.requests);
  const rows: [string, string][] = [
    ['format', parse.format],
    ['requests', count(s.requests)],
    // Counts first: a percentage of a tiny trace (or of 134 blkparse D events) misleads alone.
    ['reads / writes / trims', [s.reads, s.writes, s.trims].map((k) => `${count(k)} (${percent(k / n)})`).join(' / ')],
    ['bytes read / written', `${bytes(s.bytes_read)} / ${bytes(s.bytes_written)}`],
    ['request size', `${bytes(s.size_min)} – ${bytes(s.size_max)}, mean ${bytes(Math.round(s.size_mean))}`],
    ['footprint', `${bytes(s.footprint_bytes)} (${count(s.footprint_pages)} pages of ${bytes(s.page_bytes)})`],
    ['sequential', `${percent(s.sequential_share)} of requests continue the previous one`],
    ['duration', duration(s.duration_ns)],
    ['inter-arrival', `mean ${duration(Math.round(s.inter_arrival_ns.mean))}, p99 ${duration(s.inter_arrival_ns.p99)}`],
  ];
  return (
    <section className="trace-stats" aria-label="Trace statistics" data-testid="trace-stats">
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-stat={k}>{v}</dd>
          </div>
        ))}
      </dl>
      <h4>Request sizes</h4>
      <SizeHistogram buckets={s.size_histogram} />
      <h4>Address heat</h4>
      <HeatStrip heat={s.heat} />
      {r.warnings?.map((w) => (
        <p key={w} className="trace-stats__warning" role="alert">
          Format {parse.format}: {w}.
        </p>
      ))}
      {(r.skipped > 0 || r.ignored > 0 || r.filtered > 0 || r.limit_reached) && (
        <p className="trace-stats__note" role="note">
          {r.skipped > 0 &&
            `${count(r.skipped)} malformed lines skipped (first: line ${r.errors[0]?.line}, expected ${r.errors[0]?.expected}). `}
          {r.ignored > 0 && `${count(r.ignored)} lines carry no request. `}
          {r.filtered > 0 && `${count(r.filtered)} requests filtered out. `}
          {r.limit_reached && 'Stopped at the request limit.'}
        </p>
      )}
    </section>
  );
}
