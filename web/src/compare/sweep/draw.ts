/**
 * A sweep's line chart, as the sources draw theirs (Shin Fig 3: write response against
 * utilization): the swept values along x (evenly spaced, in the order given), one line per
 * scheme through the points finished so far, a metric on y. Pure apart from the SVG it is
 * handed (golden-tested under jsdom); styles inline so the SVG downloads as it looks.
 */
import { axisBottom, axisLeft, max, min, scalePoint, scaleLinear } from 'd3';
import { tickNum } from '../../charts/legend';
import { drawLegend, legendHeight, standaloneSvg } from '../../charts/legend';

/** One scheme's line: (value index, metric) for the points that finished. */
export interface SweepSeries {
  scheme: string;
  name: string;
  color: string;
  points: { index: number; value: number }[];
}

export interface SweepChartData {
  /** Metric path and its label and unit (y axis). */
  metric: string;
  label: string;
  unit: string;
  /** The parameter (x axis title) and each value's label, by index. */
  xTitle: string;
  xs: string[];
  series: SweepSeries[];
}

export interface SweepBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/** Text of a point's hover value and accessible name. */
export function pointText(d: SweepChartData, s: SweepSeries, p: { index: number; value: number }): string {
  const v = p.value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return `${s.scheme} · ${d.label} at ${d.xTitle} ${d.xs[p.index]}: ${v}${d.unit ? ` ${d.unit}` : ''}`;
}

/** Draws (or redraws) the chart; `hover` gets a point's text ('' when the pointer leaves). */
export function drawSweepChart(svg: SVGSVGElement, data: SweepChartData, box: SweepBox, hover: (text: string) => void) {
  const { width, height, margin } = box;
  const legendH = legendHeight(data.series.length);
  const bottom = height - margin.bottom - legendH;
  const root = standaloneSvg(svg, width, height);
  const x = scalePoint<number>()
    .domain(data.xs.map((_l, i) => i))
    .range([margin.left, width - margin.right])
    .padding(0.4);
  const all = data.series.flatMap((s) => s.points.map((p) => p.value));
  const lo = Math.min(0, min(all) ?? 0);
  const hi = Math.max(lo + 1e-9, (max(all) ?? 1) * 1.08);
  const y = scaleLinear().domain([lo, hi]).nice().range([bottom, margin.top]);

  root
    .append('g')
    .attr('class', 'axis y')
    .attr('transform', `translate(${margin.left},0)`)
    // Plain decimals (a WAF of 0.5, not "500m"); SI prefixes only for large counts.
    .call(axisLeft(y).ticks(5).tickFormat(tickNum));
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(12,${(margin.top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(data.unit ? `${data.label} (${data.unit})` : data.label);
  root
    .append('g')
    .attr('class', 'axis x')
    .attr('transform', `translate(0,${bottom})`)
    .call(axisBottom(x).tickFormat((i) => data.xs[i] ?? String(i)));
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', (margin.left + width - margin.right) / 2)
    .attr('y', bottom + 30)
    .attr('text-anchor', 'middle')
    .text(data.xTitle);

  const lines = root.append('g').attr('class', 'lines').selectAll('g').data(data.series).join('g');
  lines
    .append('path')
    .attr('fill', 'none')
    .attr('stroke', (s) => s.color)
    .attr('stroke-width', 1.5)
    .attr('d', (s) => {
      const pts = [...s.points].sort((a, b) => a.index - b.index);
      return pts.length ? `M${pts.map((p) => `${x(p.index)},${y(p.value)}`).join('L')}` : null;
    });
  lines
    .selectAll('circle')
    .data((s) => s.points.map((p) => ({ s, p })))
    .join('circle')
    .attr('class', 'point')
    .attr('cx', ({ p }) => x(p.index) ?? 0)
    .attr('cy', ({ p }) => y(p.value))
    .attr('r', 3)
    .attr('fill', ({ s }) => s.color)
    .attr('tabindex', 0)
    .attr('role', 'img')
    .attr('aria-label', ({ s, p }) => pointText(data, s, p))
    .on('mouseenter focus', (_e, { s, p }) => hover(pointText(data, s, p)))
    .on('mouseleave blur', () => hover(''))
    .append('title')
    .text(({ s, p }) => pointText(data, s, p));

  drawLegend(
    root,
    data.series.map((s) => ({ color: s.color, label: s.scheme, title: s.name })),
    box,
  );
}
