/**
 * What every comparison chart shares: the scheme key (id, name, colour from
 * `schemeColors.ts`), the drawing box, the SVG root set-up for a standalone file, number
 * formatting for hover texts, and the legend along the bottom.
 */
import { axisBottom, format, select, type ScaleBand, type Selection } from 'd3';

/** The drawing's size and the margins around its plot. */
export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/**
 * Clears `svg` and sets it up as a standalone drawing (namespace, size, view box, font), so
 * what is drawn into it also reads as an SVG file. Every comparison chart starts here.
 */
export function standaloneSvg(svg: SVGSVGElement, width: number, height: number) {
  const root = select(svg)
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('font-family', 'system-ui, sans-serif')
    .attr('font-size', 10);
  root.selectAll('*').remove();
  return root;
}

/** A scheme as the charts show it. */
export interface SchemeKey {
  id: string;
  name: string;
  color: string;
}

/** Extra legend entries (line styles: "solid = mapping, dashed = buffer"). */
export interface StyleKey {
  label: string;
  dash: string;
}

/** Clears `svg` and sets it up as a standalone drawing (namespace, size, font). */
export function chartRoot(svg: SVGSVGElement, box: ChartBox, title: string) {
  const root = standaloneSvg(svg, box.width, box.height).attr('role', 'group').attr('aria-label', title);
  // A white background, so the PNG export is not transparent.
  root
    .append('rect')
    .attr('class', 'background')
    .attr('width', box.width)
    .attr('height', box.height)
    .attr('fill', '#fff');
  return root;
}

/** A number for hover texts: up to 3 decimals, thousands separated. */
export function num(v: number): string {
  if (Math.abs(v) >= 1e6) return format(',.4~s')(v);
  return v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** An axis tick: plain below 10,000 (200, 1,500, 0.25), SI-prefixed above (20k, 1.5M). */
export function tickNum(v: number | { valueOf(): number }): string {
  const n = +v;
  return Math.abs(n) >= 1e4 ? format('~s')(n) : format(',~g')(n);
}

/** A value with its unit. */
export function withUnit(v: number, unit: string): string {
  return unit ? `${num(v)} ${unit}` : num(v);
}

/** An axis title: "label (unit)". */
export function axisTitle(label: string, unit: string): string {
  return unit ? `${label} (${unit})` : label;
}

/** A legend row's height, and entries to a row, for every chart's legend. */
export const LEGEND_ROW = 16;
export const LEGEND_COLS = 4;

/** Height of a legend of `items` entries, LEGEND_COLS to a row. */
export function legendHeight(items: number): number {
  return LEGEND_ROW * Math.ceil(items / LEGEND_COLS);
}

/** One legend entry: a colour swatch or a line style, the label shown and the hover title (a scheme's full name). */
export interface LegendItem {
  label: string;
  color?: string;
  dash?: string;
  title?: string;
}

/** A chart's schemes, then its line styles, as legend entries. */
export function legendItems(schemes: SchemeKey[], styles: StyleKey[] = []): LegendItem[] {
  return [
    ...schemes.map((s) => ({ color: s.color, label: s.id, title: s.name })),
    ...styles.map((s) => ({ dash: s.dash, label: s.label })),
  ];
}

/**
 * The one legend of every chart: `items` four to a row across the plot's width, in the
 * bottom `legendHeight(items.length)` pixels of the drawing.
 */
export function drawLegend(
  root: ReturnType<typeof standaloneSvg>,
  items: LegendItem[],
  { width, height, margin }: { width: number; height: number; margin: { left: number; right: number } },
) {
  const h = legendHeight(items.length);
  const col = (width - margin.left - margin.right) / LEGEND_COLS;
  const g = root
    .append('g')
    .attr('class', 'legend')
    .selectAll('g')
    .data(items)
    .join('g')
    .attr(
      'transform',
      (_e, i) =>
        `translate(${margin.left + (i % LEGEND_COLS) * col},${height - h + Math.floor(i / LEGEND_COLS) * LEGEND_ROW})`,
    );
  g.filter((e) => e.color !== undefined)
    .append('rect')
    .attr('width', 10)
    .attr('height', 10)
    .attr('fill', (e) => e.color!);
  g.filter((e) => e.dash !== undefined)
    .append('line')
    .attr('x1', 0)
    .attr('x2', 12)
    .attr('y1', 5)
    .attr('y2', 5)
    .attr('stroke', '#333')
    .attr('stroke-width', 2)
    .attr('stroke-dasharray', (e) => e.dash!);
  const text = g
    .append('text')
    .attr('x', 15)
    .attr('y', 9)
    .text((e) => e.label);
  text
    .filter((e) => e.title !== undefined)
    .append('title')
    .text((e) => e.title!);
}

/**
 * A bottom axis over bars named by id, with each bar's label; labels are slanted when the
 * bars are too narrow for them to stand upright.
 */
export function bandAxisBottom<E extends SVGElement>(
  into: Selection<E, unknown, null, undefined>,
  x: ScaleBand<string>,
  labels: Map<string, string>,
  bottom: number,
) {
  into
    .append('g')
    .attr('class', 'axis x')
    .attr('transform', `translate(0,${bottom})`)
    .call(axisBottom(x).tickFormat((id) => labels.get(id) ?? id))
    .call((ax) => {
      if (x.step() < 70)
        ax.selectAll('.tick text').attr('text-anchor', 'end').attr('transform', 'rotate(-35)').attr('dx', '-0.3em');
    });
}
