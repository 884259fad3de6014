/**
 * The comparison bar chart, as the sources draw theirs (TreeFTL Figs. 4–5, HCFTL Figs. 4–6):
 * for each metric a group of bars, one per scheme, each the scheme's value divided by the
 * baseline scheme's (so the baseline's bars are all 1). Pure apart from the SVG it is handed
 * (golden-tested under jsdom); exportable as a standalone SVG file (styles inline).
 */
import { axisBottom, axisLeft, format, max, scaleBand, scaleLinear } from 'd3';
import { drawLegend, legendHeight, standaloneSvg, type ChartBox } from './legend';

/** One bar: a scheme's value of one metric and its ratio to the baseline's. */
export interface Bar {
  scheme: string;
  value: number;
  ratio: number;
}

/** One group of bars (a metric). */
export interface BarGroup {
  id: string;
  label: string;
  unit: string;
  bars: Bar[];
}

export interface CompareChartData {
  baseline: string;
  groups: BarGroup[];
  /** Scheme ids in legend order, with their colours and names. */
  schemes: { id: string; name: string; color: string }[];
}

/** Text of a bar's hover value and accessible name. */
export function barText(g: BarGroup, b: Bar, baseline: string): string {
  const v = `${b.value.toLocaleString('en-US', { maximumFractionDigits: 3 })}${g.unit ? ` ${g.unit}` : ''}`;
  return `${b.scheme} · ${g.label}: ${v} (${format('.3~f')(b.ratio)}× ${baseline})`;
}

/** Draws (or redraws) the chart; `hover` gets a bar's text ('' when the pointer leaves). */
export function drawCompareChart(
  svg: SVGSVGElement,
  data: CompareChartData,
  box: ChartBox,
  hover: (text: string) => void,
) {
  const { width, height, margin } = box;
  const legendH = legendHeight(data.schemes.length);
  const bottom = height - margin.bottom - legendH;
  const root = standaloneSvg(svg, width, height);
  const x = scaleBand<string>()
    .domain(data.groups.map((g) => g.id))
    .range([margin.left, width - margin.right])
    .padding(0.2);
  const inner = scaleBand<string>()
    .domain(data.schemes.map((s) => s.id))
    .range([0, x.bandwidth()])
    .padding(0.08);
  const top = Math.max(1.1, (max(data.groups, (g) => max(g.bars, (b) => b.ratio)) ?? 1) * 1.08);
  const y = scaleLinear().domain([0, top]).nice().range([bottom, margin.top]);
  const color = new Map(data.schemes.map((s) => [s.id, s.color]));

  root
    .append('g')
    .attr('class', 'axis y')
    .attr('transform', `translate(${margin.left},0)`)
    .call(
      axisLeft(y)
        .ticks(5)
        .tickFormat((v) => `${format('~g')(+v)}×`),
    );
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(12,${(margin.top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(`Relative to ${data.baseline} (ratio, ×)`);
  const labels = new Map(data.groups.map((g) => [g.id, g.unit ? `${g.label} (${g.unit})` : g.label]));
  root
    .append('g')
    .attr('class', 'axis x')
    .attr('transform', `translate(0,${bottom})`)
    .call(axisBottom(x).tickFormat((id) => labels.get(id) ?? id))
    // Narrow groups: slant the labels so neighbours do not overlap.
    .call((g) => {
      if (x.step() < 110)
        g.selectAll('.tick text').attr('text-anchor', 'end').attr('transform', 'rotate(-35)').attr('dx', '-0.3em');
    });
  // The baseline's level, so "better / worse than the baseline" reads at a glance.
  root
    .append('line')
    .attr('class', 'unit')
    .attr('x1', margin.left)
    .attr('x2', width - margin.right)
    .attr('y1', y(1))
    .attr('y2', y(1))
    .attr('stroke', '#555')
    .attr('stroke-dasharray', '3 3');

  const groups = root
    .append('g')
    .attr('class', 'bars')
    .selectAll('g')
    .data(data.groups)
    .join('g')
    .attr('transform', (g) => `translate(${x(g.id)},0)`);
  groups
    .selectAll('rect')
    .data((g) => g.bars.map((b) => ({ g, b })))
    .join('rect')
    .attr('class', 'bar')
    .attr('x', ({ b }) => inner(b.scheme) ?? 0)
    .attr('width', inner.bandwidth())
    .attr('y', ({ b }) => y(b.ratio))
    .attr('height', ({ b }) => Math.max(0, bottom - y(b.ratio)))
    .attr('fill', ({ b }) => color.get(b.scheme) ?? '#888')
    .attr('tabindex', 0)
    .attr('role', 'img')
    .attr('aria-label', ({ g, b }) => barText(g, b, data.baseline))
    .on('mouseenter focus', (_e, { g, b }) => hover(barText(g, b, data.baseline)))
    .on('mouseleave blur', () => hover(''))
    .append('title')
    .text(({ g, b }) => barText(g, b, data.baseline));

  // Ids keep the legend short (names run to 60 characters); the name is the hover title.
  const label = (id: string) => (id === data.baseline ? `${id} (baseline)` : id);
  drawLegend(
    root,
    data.schemes.map((s) => ({ color: s.color, label: label(s.id), title: s.name })),
    box,
  );
}

/** The chart as a standalone SVG document (for download). */
export function svgFile(svg: SVGSVGElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
