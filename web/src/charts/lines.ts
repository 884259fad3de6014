/**
 * The one line drawer: lines, one (or two: solid and dashed) per scheme in the scheme's
 * colour: the response-time CDF, response time, free blocks and RAM over the trace, and a
 * sweep's metric against its swept values. Over a numeric x axis, hover, or focus the plot
 * and use the arrow keys (Home / End), to read every line's value at one x; over a point
 * scale (a sweep's values, `x.labels`) each point is a dot of its own, hovered or focused
 * (Tab) one by one, as the sources draw theirs (Shin Fig 3). Pure apart from the SVG it is
 * handed (golden-tested under jsdom).
 */
import { axisBottom, axisLeft, bisector, extent, line, pointer, scaleLinear, scaleLog, scalePoint } from 'd3';
import {
  axisTitle,
  chartRoot,
  drawLegend,
  legendHeight,
  legendItems,
  num,
  tickNum,
  withUnit,
  type ChartBox,
  type SchemeKey,
  type StyleKey,
} from './legend';

export interface LinePoint {
  x: number;
  y: number;
  /** More to say about the point on hover (a window's worst response). */
  note?: string;
}

export interface Line {
  scheme: string;
  /** Which of `styles` this line is drawn in (none: solid). */
  style?: string;
  /** Points in increasing x. */
  points: LinePoint[];
}

export interface LineAxis {
  label: string;
  unit: string;
  /** Log scale (used only when every value is > 0). */
  log?: boolean;
  /** A fixed top (1 for shares). */
  top?: number;
  /** Room above the largest value, as a factor (1.08: 8 % more), before rounding to nice ticks. */
  headroom?: number;
  /**
   * A point scale: the x values are indices into these labels, spaced evenly in this order
   * (a sweep's values, which need not be numbers or evenly apart); the ticks are the labels.
   */
  labels?: string[];
}

export interface LinesData {
  title: string;
  x: LineAxis;
  y: LineAxis;
  lines: Line[];
  schemes: SchemeKey[];
  /** Line styles in use, for the legend (label and dash pattern). */
  styles?: StyleKey[];
  /** A rule at one x (the timeline's position), kept inside the x axis. */
  marker?: { x: number; label: string };
  /**
   * Each point as a dot of its own, hovered, focused and named one by one with this text,
   * in place of the reading cursor (few points: a sweep's). A point scale always draws dots.
   */
  pointText?: (l: Line, p: LinePoint) => string;
}

/** The point of `l` nearest to `x`. */
export function nearest(l: Line, x: number): LinePoint | undefined {
  const pts = l.points;
  if (!pts.length) return undefined;
  const i = bisector((p: LinePoint) => p.x).center(pts, x);
  return pts[i];
}

/** The hover text at `x`: the x value, then each line's nearest point. */
export function linesText(data: LinesData, x: number): string {
  const parts = data.lines.flatMap((l) => {
    const p = nearest(l, x);
    if (!p) return [];
    const who = l.style ? `${l.scheme} ${l.style}` : l.scheme;
    return [`${who} ${withUnit(p.y, data.y.unit)}${p.note ? ` (${p.note})` : ''}`];
  });
  return `${data.x.label} ${withUnit(x, data.x.unit)}: ${parts.join('; ')}`;
}

/** The axis' scale, and whether it is logarithmic (asked for, and every value > 0). */
function scale(axis: LineAxis, values: number[], range: [number, number]) {
  const [lo, hi] = extent(values) as [number | undefined, number | undefined];
  if (axis.log && lo != null && lo > 0) return { s: scaleLog().domain([lo, hi!]).nice().range(range), log: true };
  const s = scaleLinear()
    .domain([Math.min(0, lo ?? 0), axis.top ?? ((hi ?? 0) * (axis.headroom ?? 1) || 1)])
    .nice()
    .range(range);
  return { s, log: false };
}

/**
 * Draws (or redraws) the lines; `hover` gets the text at the pointer or key cursor ('' on
 * leave); `pick`, when given, gets the x of a click or of Enter at the cursor (the RAM split
 * panel seeks the timeline there).
 */
export function drawLines(
  svg: SVGSVGElement,
  data: LinesData,
  box: ChartBox,
  hover: (text: string) => void,
  pick?: (x: number) => void,
) {
  const { width, height, margin } = box;
  const styles = data.styles ?? [];
  const root = chartRoot(svg, box, data.title);
  const bottom = height - margin.bottom - legendHeight(data.schemes.length + styles.length);
  const all = data.lines.flatMap((l) => l.points);
  const xValues = all.map((p) => p.x).concat(data.marker ? [data.marker.x] : []);
  const labels = data.x.labels;
  const { s: xNum, log: xLog } = scale(data.x, xValues, [margin.left, width - margin.right]);
  const xPoint = labels
    ? scalePoint<number>()
        .domain(labels.map((_l, i) => i))
        .range([margin.left, width - margin.right])
        .padding(0.4)
    : null;
  const x = (v: number) => (xPoint ? (xPoint(v) ?? 0) : xNum(v));
  const { s: y, log: yLog } = scale(
    data.y,
    all.map((p) => p.y),
    [bottom, margin.top],
  );
  const color = new Map(data.schemes.map((s) => [s.id, s.color]));
  const dash = new Map(styles.map((s) => [s.label, s.dash]));

  root
    .append('g')
    .attr('class', 'axis x')
    .attr('transform', `translate(0,${bottom})`)
    .call(
      xPoint
        ? axisBottom(xPoint).tickFormat((i) => labels![i] ?? String(i))
        : xLog
          ? axisBottom(xNum).ticks(6, tickNum as never)
          : axisBottom(xNum).ticks(6).tickFormat(tickNum),
    );
  root
    .append('text')
    .attr('class', 'axis-label x')
    .attr('x', (margin.left + width - margin.right) / 2)
    .attr('y', bottom + 30)
    .attr('text-anchor', 'middle')
    .text(axisTitle(data.x.label, data.x.unit) + (xLog ? ', log scale' : ''));
  root
    .append('g')
    .attr('class', 'axis y')
    .attr('transform', `translate(${margin.left},0)`)
    .call(yLog ? axisLeft(y).ticks(5, tickNum as never) : axisLeft(y).ticks(5).tickFormat(tickNum));
  root
    .append('text')
    .attr('class', 'axis-label y')
    .attr('transform', `translate(12,${(margin.top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(axisTitle(data.y.label, data.y.unit) + (yLog ? ', log scale' : ''));

  const path = line<LinePoint>()
    .x((p) => x(p.x))
    .y((p) => y(p.y));
  root
    .append('g')
    .attr('class', 'lines')
    .selectAll('path')
    .data(data.lines)
    .join('path')
    .attr('class', 'line')
    .attr('fill', 'none')
    .attr('stroke', (l) => color.get(l.scheme) ?? '#888')
    .attr('stroke-width', 1.5)
    .attr('stroke-dasharray', (l) => (l.style ? (dash.get(l.style) ?? null) : null))
    .attr('d', (l) => path(l.points))
    .append('title')
    .text((l) => (l.style ? `${l.scheme} ${l.style}` : l.scheme));

  if (data.marker) {
    const m = root.append('g').attr('class', 'marker');
    m.append('line')
      .attr('x1', x(data.marker.x))
      .attr('x2', x(data.marker.x))
      .attr('y1', margin.top)
      .attr('y2', bottom)
      .attr('stroke', '#222')
      .attr('stroke-width', 1.5);
    m.append('title').text(data.marker.label);
  }

  const pointText = data.pointText ?? (labels ? (l: Line, p: LinePoint) => pointSaid(data, l, p) : null);
  if (pointText) {
    drawPoints(root, data, x, (v) => y(v), color, pointText, hover);
    drawLegend(root, legendItems(data.schemes, styles), box);
    return;
  }

  // The reading cursor: a rule and a dot on each line at one x.
  const xs = [...new Set(all.map((p) => p.x))].sort((a, b) => a - b);
  const cursor = root.append('g').attr('class', 'cursor').attr('visibility', 'hidden');
  cursor
    .append('line')
    .attr('y1', margin.top)
    .attr('y2', bottom)
    .attr('stroke', '#555')
    .attr('stroke-dasharray', '2 2');
  const dots = cursor
    .selectAll('circle')
    .data(data.lines)
    .join('circle')
    .attr('r', 3)
    .attr('fill', (l) => color.get(l.scheme) ?? '#888');
  let at = 0;
  const show = (i: number) => {
    if (!xs.length) return;
    at = Math.max(0, Math.min(xs.length - 1, i));
    const xv = xs[at];
    cursor.attr('visibility', 'visible');
    cursor.select('line').attr('x1', x(xv)).attr('x2', x(xv));
    dots.each(function (l) {
      const p = nearest(l, xv);
      const c = this as SVGCircleElement;
      c.setAttribute('cx', String(p ? x(p.x) : -10));
      c.setAttribute('cy', String(p ? y(p.y) : -10));
    });
    hover(linesText(data, xv));
  };
  const hide = () => {
    cursor.attr('visibility', 'hidden');
    hover('');
  };
  root
    .append('rect')
    .attr('class', 'overlay')
    .attr('x', margin.left)
    .attr('y', margin.top)
    .attr('width', Math.max(0, width - margin.left - margin.right))
    .attr('height', Math.max(0, bottom - margin.top))
    .attr('fill', 'transparent')
    .attr('tabindex', 0)
    .attr('role', 'img')
    .attr('aria-label', `${data.title}: arrow keys read the values (${num(xs.length)} points)`)
    .on('mousemove', (e: MouseEvent) => {
      const xv = xNum.invert(pointer(e, svg)[0]);
      show(bisector((v: number) => v).center(xs, xv));
    })
    .on('mouseleave blur', hide)
    .on('focus', () => show(at))
    .on('click', (e: MouseEvent) => {
      if (!pick || !xs.length) return;
      show(bisector((v: number) => v).center(xs, xNum.invert(pointer(e, svg)[0])));
      pick(xs[at]);
    })
    .on('keydown', (e: KeyboardEvent) => {
      // Keys the chart reads are its own, not the page's shortcuts (Home would seek the timeline).
      if (e.key === 'Enter' && pick && xs.length) {
        e.preventDefault();
        e.stopPropagation();
        pick(xs[at]);
        return;
      }
      const step = e.shiftKey ? 10 : 1;
      const next = { ArrowRight: at + step, ArrowLeft: at - step, Home: 0, End: xs.length - 1 }[e.key];
      if (next == null) return;
      e.preventDefault();
      e.stopPropagation(); // the arrows, Home and End here read the chart; they must not move the timeline
      show(next);
    });
  if (!xs.length) root.select('.overlay').attr('aria-label', `${data.title}: no data`);
  drawLegend(root, legendItems(data.schemes, styles), box);
}

/** A point's text on a point scale when the data gives none: the line, its value and its x label. */
function pointSaid(data: LinesData, l: Line, p: LinePoint): string {
  const who = l.style ? `${l.scheme} ${l.style}` : l.scheme;
  return `${who} · ${withUnit(p.y, data.y.unit)} at ${data.x.label} ${data.x.labels?.[p.x] ?? num(p.x)}`;
}

/** Every point as a focusable dot in its line's colour, named by `text`, said on hover or focus. */
function drawPoints(
  root: ReturnType<typeof chartRoot>,
  data: LinesData,
  x: (v: number) => number,
  y: (v: number) => number,
  color: Map<string, string>,
  text: (l: Line, p: LinePoint) => string,
  hover: (text: string) => void,
) {
  root
    .append('g')
    .attr('class', 'points')
    .selectAll('g')
    .data(data.lines)
    .join('g')
    .selectAll('circle')
    .data((l) => l.points.map((p) => ({ l, p })))
    .join('circle')
    .attr('class', 'point')
    .attr('cx', ({ p }) => x(p.x))
    .attr('cy', ({ p }) => y(p.y))
    .attr('r', 3)
    .attr('fill', ({ l }) => color.get(l.scheme) ?? '#888')
    .attr('tabindex', 0)
    .attr('role', 'img')
    .attr('aria-label', ({ l, p }) => text(l, p))
    .on('mouseenter focus', (_e, { l, p }) => hover(text(l, p)))
    .on('mouseleave blur', () => hover(''))
    .append('title')
    .text(({ l, p }) => text(l, p));
}
