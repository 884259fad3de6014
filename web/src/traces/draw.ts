/**
 * Draws the trace panel's two small charts into SVGs: request sizes as bars over
 * power-of-two buckets, and where in the address space requests land (a heat strip). Pure
 * apart from the DOM they are handed, so they are tested as SVG goldens under jsdom
 * (draw.test.ts); the components only hand React's data to them. D3 joins keep a redraw in
 * place.
 */
import { scaleBand, scaleLinear, select } from 'd3';
import type { TraceSummary } from '../engine/protocol';
import { bytes } from './format';

/** Size of both charts' view boxes (they scale to the panel's width). */
export const CHART_W = 260;
export const HIST_H = 70;
export const HEAT_H = 14;

type Bucket = TraceSummary['size_histogram'][number];

/** Draws the request-size histogram (empty buckets left out). */
export function drawSizeHistogram(svg: SVGSVGElement, buckets: Bucket[]) {
  const shown = buckets.filter((b) => b.count > 0);
  const x = scaleBand<number>()
    .domain(shown.map((_, i) => i))
    .range([0, CHART_W])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...shown.map((b) => b.count))])
    .range([0, HIST_H - 14]);
  const labelled = (i: number) => i === 0 || i === shown.length - 1 || shown.length <= 6;
  const root = select(svg)
    .attr('viewBox', `0 0 ${CHART_W} ${HIST_H}`)
    .attr('role', 'img')
    .attr('aria-label', 'Request size histogram');
  const bars = root
    .selectAll<SVGGElement, Bucket>('g.bucket')
    .data(shown, (b) => b.min_bytes)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'bucket');
      g.append('rect').attr('fill', '#0072b2').append('title');
      g.append('text').attr('text-anchor', 'middle').attr('font-size', 8);
      return g;
    });
  bars
    .select('rect')
    .attr('x', (_b, i) => x(i) ?? 0)
    .attr('y', (b) => HIST_H - 12 - y(b.count))
    .attr('width', x.bandwidth())
    .attr('height', (b) => y(b.count));
  bars
    .select('title')
    .text((b) => `${bytes(b.min_bytes)} – ${bytes(b.max_bytes)}: ${b.count.toLocaleString('en-US')} requests`);
  bars
    .select('text')
    .attr('x', (_b, i) => (x(i) ?? 0) + x.bandwidth() / 2)
    .attr('y', HIST_H - 2)
    .text((b, i) => (labelled(i) ? bytes(b.min_bytes).replace(' ', '') : ''));
}

/** Draws the address heat strip: one cell per bucket, darker = more requests. */
export function drawHeatStrip(svg: SVGSVGElement, heat: TraceSummary['heat']) {
  const max = Math.max(1, ...heat.counts);
  const w = CHART_W / Math.max(1, heat.counts.length);
  const root = select(svg)
    .attr('viewBox', `0 0 ${CHART_W} ${HEAT_H}`)
    .attr('role', 'img')
    .attr('aria-label', 'Logical address heat');
  root
    .selectAll<SVGRectElement, number>('rect')
    .data(heat.counts)
    .join((enter) => {
      const r = enter.append('rect');
      r.append('title');
      return r;
    })
    .attr('x', (_c, i) => i * w)
    .attr('y', 0)
    .attr('width', w + 0.2)
    .attr('height', HEAT_H)
    .attr('fill', '#d55e00')
    .attr('fill-opacity', (c) => (c === 0 ? 0.04 : 0.15 + (0.85 * c) / max))
    .select('title')
    .text((c, i) => `${bytes(heat.first_offset + i * heat.bucket_bytes)}: ${c.toLocaleString('en-US')} requests`);
}
