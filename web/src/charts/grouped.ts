/**
 * Absolute values side by side, as the sources' tables and bar figures give them (hit ratios,
 * flash operations by purpose, copies and WAF, percentiles, worst case): small multiples
 * ("panels"), each with its own y axis and unit, holding groups of bars with one bar per
 * scheme in the scheme's colour. Pure apart from the SVG it is handed (golden-tested under
 * jsdom).
 */
import { axisLeft, max, min, scaleBand, scaleLinear, scaleLog } from 'd3';
import {
  axisTitle,
  bandAxisBottom,
  chartRoot,
  drawLegend,
  legendHeight,
  legendItems,
  tickNum,
  withUnit,
  type ChartBox,
  type SchemeKey,
} from './legend';

export interface PanelBar {
  scheme: string;
  value: number;
}

/** One x-axis category of a panel (a purpose, a percentile, a cache). */
export interface PanelGroup {
  id: string;
  label: string;
  bars: PanelBar[];
}

export interface Panel {
  id: string;
  /** What the y axis measures. */
  label: string;
  unit: string;
  /** A log y axis (values spanning decades: percentiles); used only when every value is > 0. */
  log?: boolean;
  /** A fixed top of the y axis (1 for ratios). */
  top?: number;
  groups: PanelGroup[];
}

export interface PanelsData {
  title: string;
  panels: Panel[];
  schemes: SchemeKey[];
}

/** A bar's hover text and accessible name. */
export function panelBarText(p: Panel, g: PanelGroup, b: PanelBar): string {
  const what = g.label === p.label ? p.label : `${p.label}, ${g.label}`;
  return `${b.scheme} · ${what}: ${withUnit(b.value, p.unit)}`;
}

const GAP = 48;
/** Narrowest panel drawn side by side; narrower ones are stacked (the side panel's width). */
const MIN_PANEL_W = 170;

/** Whether `n` panels are stacked one above the other in a box `width` wide. */
export function stacksPanels(n: number, width: number, margin: ChartBox['margin']): boolean {
  return n > 1 && (width - margin.left - margin.right - GAP * (n - 1)) / n < MIN_PANEL_W;
}

/** Draws (or redraws) the panels; `hover` gets a bar's text ('' when the pointer leaves). */
export function drawPanels(svg: SVGSVGElement, data: PanelsData, box: ChartBox, hover: (text: string) => void) {
  const { width, height, margin } = box;
  const root = chartRoot(svg, box, data.title);
  const n = Math.max(1, data.panels.length);
  const stacked = stacksPanels(n, width, margin);
  // Side by side: panels share the height and split the width; stacked: the reverse, each
  // band keeping the margins for its own axes.
  const plotH = height - legendHeight(data.schemes.length);
  const bandH = stacked ? plotH / n : plotH;
  const panelW = stacked
    ? width - margin.left - margin.right
    : (width - margin.left - margin.right - GAP * (n - 1)) / n;
  const color = new Map(data.schemes.map((s) => [s.id, s.color]));

  data.panels.forEach((p, i) => {
    const left = margin.left + (stacked ? 0 : i * (panelW + GAP));
    const top = (stacked ? i * bandH : 0) + margin.top;
    const bottom = (stacked ? i * bandH : 0) + bandH - margin.bottom;
    const values = p.groups.flatMap((g) => g.bars.map((b) => b.value));
    const hi = p.top ?? (max(values) || 1);
    const lo = min(values) ?? 0;
    const log = p.log && lo > 0;
    const y = log
      ? scaleLog()
          .domain([lo / 1.5, hi * 1.5])
          .nice()
          .range([bottom, top])
      : scaleLinear()
          .domain([0, p.top ?? hi * 1.08])
          .nice()
          .range([bottom, top]);
    const x = scaleBand<string>()
      .domain(p.groups.map((g) => g.id))
      .range([left, left + panelW])
      .padding(0.2);
    const inner = scaleBand<string>()
      .domain(data.schemes.map((s) => s.id))
      .range([0, x.bandwidth()])
      .padding(0.08);
    const g = root.append('g').attr('class', 'panel').attr('data-panel', p.id);
    g.append('g')
      .attr('class', 'axis y')
      .attr('transform', `translate(${left},0)`)
      .call(log ? axisLeft(y).ticks(4, tickNum as never) : axisLeft(y).ticks(5).tickFormat(tickNum));
    g.append('text')
      .attr('class', 'axis-label')
      .attr('transform', `translate(${left - 36},${(top + bottom) / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .text(axisTitle(p.label, p.unit) + (log ? ', log scale' : ''));
    const labels = new Map(p.groups.map((gr) => [gr.id, gr.label]));
    bandAxisBottom(g, x, labels, bottom);
    const base = y.range()[0];
    g.append('g')
      .attr('class', 'bars')
      .selectAll('g')
      .data(p.groups)
      .join('g')
      .attr('transform', (gr) => `translate(${x(gr.id)},0)`)
      .selectAll('rect')
      .data((gr) => gr.bars.map((b) => ({ gr, b })))
      .join('rect')
      .attr('class', 'bar')
      .attr('x', ({ b }) => inner(b.scheme) ?? 0)
      .attr('width', inner.bandwidth())
      .attr('y', ({ b }) => (log ? y(b.value) : y(Math.max(0, b.value))))
      .attr('height', ({ b }) => Math.max(0, base - (log ? y(b.value) : y(Math.max(0, b.value)))))
      .attr('fill', ({ b }) => color.get(b.scheme) ?? '#888')
      .attr('tabindex', 0)
      .attr('role', 'img')
      .attr('aria-label', ({ gr, b }) => panelBarText(p, gr, b))
      .on('mouseenter focus', (_e, { gr, b }) => hover(panelBarText(p, gr, b)))
      .on('mouseleave blur', () => hover(''))
      .append('title')
      .text(({ gr, b }) => panelBarText(p, gr, b));
  });
  drawLegend(root, legendItems(data.schemes), box);
}
