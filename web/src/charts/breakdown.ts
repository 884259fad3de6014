/**
 * Seed 003's time breakdown as its Fig. 3 draws it: one stacked bar per configuration (a
 * metadata model, a scheme), its four parts from the bottom: host transfer, metadata loading,
 * FTL execution, internal user-data transfer (engine `TimeBreakdown`, µs). Drawn only for
 * runs placed by a metadata model (their metrics carry `metadata`): under `flat` nothing is
 * placed and the metadata part is always 0. Pure apart from the SVG it is handed.
 */
import { axisLeft, max, scaleBand, scaleLinear } from 'd3';
import { drawLegend, legendHeight, standaloneSvg, type ChartBox } from './legend';
import type { RunMetrics } from '../engine/metrics';
import { axisTitle, bandAxisBottom, tickNum, withUnit } from './legend';

/** The four parts: the field of `time_breakdown_us`, its label and colour (bottom first). */
export const BREAKDOWN_PARTS = [
  { field: 'host_transfer', label: 'Host transfer', color: '#4e79a7' },
  { field: 'metadata_loading', label: 'Metadata loading', color: '#e15759' },
  { field: 'ftl_execution', label: 'FTL execution', color: '#f28e2c' },
  { field: 'user_data_transfer', label: 'User-data transfer', color: '#59a14f' },
] as const;

/** One bar: a configuration's four parts in µs, in `BREAKDOWN_PARTS` order. */
export interface BreakdownStack {
  id: string;
  label: string;
  parts: number[];
}

export interface BreakdownData {
  title: string;
  stacks: BreakdownStack[];
}

/** The four parts of a run placed by a metadata model; `null` for any other run. */
export function breakdownOf(m: RunMetrics): number[] | null {
  const b = m.time_breakdown_us as Record<string, unknown> | undefined;
  if (!m.metadata || !b) return null;
  const parts = BREAKDOWN_PARTS.map((p) => b[p.field]);
  return parts.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (parts as number[]) : null;
}

/** A segment's hover text and accessible name. */
export function segmentText(s: BreakdownStack, part: number): string {
  const total = s.parts.reduce((a, v) => a + v, 0);
  const share = total > 0 ? ` (${((100 * s.parts[part]) / total).toFixed(1)} %)` : '';
  return `${s.label} · ${BREAKDOWN_PARTS[part].label}: ${withUnit(s.parts[part], 'µs')}${share}`;
}

/** Draws (or redraws) the stacked bars; `hover` gets a segment's text ('' when the pointer leaves). */
export function drawBreakdown(svg: SVGSVGElement, data: BreakdownData, box: ChartBox, hover: (text: string) => void) {
  const { width, height, margin } = box;
  const root = standaloneSvg(svg, width, height).attr('role', 'group').attr('aria-label', data.title);
  root.append('rect').attr('class', 'background').attr('width', width).attr('height', height).attr('fill', '#fff');
  const bottom = height - margin.bottom - legendHeight(BREAKDOWN_PARTS.length);
  const totals = data.stacks.map((s) => s.parts.reduce((a, v) => a + Math.max(0, v), 0));
  const y = scaleLinear()
    .domain([0, (max(totals) || 1) * 1.05])
    .nice()
    .range([bottom, margin.top]);
  const x = scaleBand<string>()
    .domain(data.stacks.map((s) => s.id))
    .range([margin.left, width - margin.right])
    .padding(0.3);
  root
    .append('g')
    .attr('class', 'axis y')
    .attr('transform', `translate(${margin.left},0)`)
    .call(axisLeft(y).ticks(5).tickFormat(tickNum));
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(12,${(margin.top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(axisTitle('Elapsed time', 'µs'));
  const labels = new Map(data.stacks.map((s) => [s.id, s.label]));
  bandAxisBottom(root, x, labels, bottom);
  const segments = data.stacks.flatMap((s) => {
    let below = 0;
    return s.parts.map((v, part) => {
      const from = below;
      below += Math.max(0, v);
      return { s, part, from, to: below };
    });
  });
  root
    .append('g')
    .attr('class', 'bars')
    .selectAll('rect')
    .data(segments)
    .join('rect')
    .attr('class', 'segment')
    .attr('data-stack', (d) => d.s.id)
    .attr('data-part', (d) => BREAKDOWN_PARTS[d.part].field)
    .attr('x', (d) => x(d.s.id) ?? 0)
    .attr('width', x.bandwidth())
    .attr('y', (d) => y(d.to))
    .attr('height', (d) => y(d.from) - y(d.to))
    .attr('fill', (d) => BREAKDOWN_PARTS[d.part].color)
    .attr('tabindex', 0)
    .attr('role', 'img')
    .attr('aria-label', (d) => segmentText(d.s, d.part))
    .on('mouseenter focus', (_e, d) => hover(segmentText(d.s, d.part)))
    .on('mouseleave blur', () => hover(''))
    .append('title')
    .text((d) => segmentText(d.s, d.part));
  drawLegend(
    root,
    BREAKDOWN_PARTS.map((p) => ({ color: p.color, label: p.label, title: `time_breakdown_us.${p.field}` })),
    box,
  );
}

/** The side-by-side comparison's bars: one per run placed by a metadata model, by scheme. */
export function compareBreakdown(runs: RunMetrics[]): BreakdownData {
  const stacks = runs.flatMap((m) => {
    const parts = breakdownOf(m);
    return parts ? [{ id: m.scheme, label: m.scheme, parts }] : [];
  });
  return { title: 'Time breakdown (seed 003)', stacks };
}
