import { scaleBand, scaleLinear } from 'd3';
import type { TraceSummary } from '../engine/protocol';
import { bytes } from './format';

const W = 260;
const H = 70;

/** Request sizes as bars over power-of-two buckets (D3 scales, SVG). */
export function SizeHistogram({ buckets }: { buckets: TraceSummary['size_histogram'] }) {
  const shown = buckets.filter((b) => b.count > 0);
  if (shown.length === 0) return null;
  const x = scaleBand<number>()
    .domain(shown.map((_, i) => i))
    .range([0, W])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, Math.max(...shown.map((b) => b.count))])
    .range([0, H - 14]);
  return (
    <svg className="size-histogram" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Request size histogram">
      {shown.map((b, i) => (
        <g key={b.min_bytes}>
          <rect x={x(i)} y={H - 12 - y(b.count)} width={x.bandwidth()} height={y(b.count)} fill="#0072b2">
            <title>{`${bytes(b.min_bytes)} – ${bytes(b.max_bytes)}: ${b.count.toLocaleString('en-US')} requests`}</title>
          </rect>
          {(i === 0 || i === shown.length - 1 || shown.length <= 6) && (
            <text x={(x(i) ?? 0) + x.bandwidth() / 2} y={H - 2} textAnchor="middle" fontSize="8">
              {bytes(b.min_bytes).replace(' ', '')}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

/** Where in the address space requests land: one cell per heat bucket, darker = more. */
export function HeatStrip({ heat }: { heat: TraceSummary['heat'] }) {
  const max = Math.max(1, ...heat.counts);
  const w = W / Math.max(1, heat.counts.length);
  return (
    <svg className="heat-strip" viewBox={`0 0 ${W} 14`} role="img" aria-label="Logical address heat">
      {heat.counts.map((c, i) => (
        <rect key={i} x={i * w} y={0} width={w + 0.2} height={14} fill="#d55e00" fillOpacity={c === 0 ? 0.04 : 0.15 + (0.85 * c) / max}>
          <title>{`${bytes(heat.first_offset + i * heat.bucket_bytes)}: ${c.toLocaleString('en-US')} requests`}</title>
        </rect>
      ))}
    </svg>
  );
}
