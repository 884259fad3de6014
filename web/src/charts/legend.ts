/**
 * What every comparison chart shares: the scheme key (id, name, colour from
 * `app/schemeColors.ts`), the drawing box, the SVG root set-up for a standalone file, number
 * formatting for hover texts, and the legend along the bottom.
 */
import { format, type Selection } from 'd3';
import { LEGEND_COLS, LEGEND_ROW, legendHeight, standaloneSvg, type ChartBox } from './draw';

export { legendHeight, type ChartBox };

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
  root.append('rect').attr('class', 'background').attr('width', box.width).attr('height', box.height).attr('fill', '#fff');
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

/**
 * The legend at the bottom of the box: one entry per scheme (colour swatch, id, the name as
 * hover title), then the line styles.
 */
export function drawLegend(root: Selection<SVGSVGElement, unknown, null, undefined>, schemes: SchemeKey[], box: ChartBox, styles: StyleKey[] = []) {
  const entries = [...schemes.map((s) => ({ s, style: null as StyleKey | null })), ...styles.map((style) => ({ s: null as SchemeKey | null, style }))];
  const h = legendHeight(entries.length);
  const col = (box.width - box.margin.left - box.margin.right) / LEGEND_COLS;
  const g = root
    .append('g')
    .attr('class', 'legend')
    .selectAll('g')
    .data(entries)
    .join('g')
    .attr('transform', (_e, i) => `translate(${box.margin.left + (i % LEGEND_COLS) * col},${box.height - h + Math.floor(i / LEGEND_COLS) * LEGEND_ROW})`);
  g.filter((e) => e.s != null)
    .append('rect')
    .attr('width', 10)
    .attr('height', 10)
    .attr('fill', (e) => e.s!.color);
  g.filter((e) => e.style != null)
    .append('line')
    .attr('x1', 0)
    .attr('x2', 12)
    .attr('y1', 5)
    .attr('y2', 5)
    .attr('stroke', '#333')
    .attr('stroke-width', 2)
    .attr('stroke-dasharray', (e) => e.style!.dash);
  const text = g
    .append('text')
    .attr('x', 15)
    .attr('y', 9)
    .text((e) => (e.s ? e.s.id : e.style!.label));
  text
    .filter((e) => e.s != null)
    .append('title')
    .text((e) => e.s!.name);
}
