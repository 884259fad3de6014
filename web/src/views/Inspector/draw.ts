/**
 * Draws the response-time chart into an SVG: pure apart from the DOM it is handed, so it is
 * tested as an SVG golden under jsdom (draw.test.ts) and the component only wires React state
 * to it. Elements are created on the first call and updated on the next ones (D3 joins).
 */
import { axisBottom, axisLeft, format, select, type Selection } from 'd3';
import type { ResponseSeries } from '../../engine/responseBins';
import { formatNs } from '../../narration/narrate';
import { chartScales, spikes, stepPath, type ChartBox } from './chartScales';

/** Spikes marked (and reachable by keyboard). */
export const SPIKES = 8;

/** What the chart shows. */
export interface ResponseChartData {
  series: ResponseSeries;
  /** Requests in the trace (the x domain). */
  total: number;
  /** Requests served at the current position (the marker). */
  pos: number;
  /** The scheme's analytic worst-case response (µs) and its label, drawn as a line. */
  bound?: { us: number; label: string };
}

/** What the chart does on input: `jump` to bin `b`'s worst request; `hover` text ('' = none). */
export interface ResponseChartHandlers {
  jump(bin: number): void;
  hover(text: string): void;
}

type Svg = Selection<SVGSVGElement, unknown, null, undefined>;

/** The child `tag.cls` of `root`, appended if missing: children keep their paint order. */
function part<E extends SVGElement>(root: Svg, tag: string, cls: string): Selection<E, unknown, null, undefined> {
  const found = root.select<E>(`${tag}.${cls.split(' ').join('.')}`);
  return (found.empty() ? root.append(tag).attr('class', cls) : found) as unknown as Selection<
    E,
    unknown,
    null,
    undefined
  >;
}

const usFormat = (v: number) => (v >= 1000 ? `${format('~g')(v / 1000)} ms` : `${format('~g')(v)} µs`);

/** Draws (or redraws) the chart for `data` in `box`. */
export function drawResponseChart(
  svg: SVGSVGElement,
  data: ResponseChartData,
  box: ChartBox,
  on: ResponseChartHandlers,
) {
  const { series, total, pos, bound } = data;
  const { width, height, margin } = box;
  const sc = chartScales(series, total, box, bound?.us ?? 0);
  const root: Svg = select(svg).attr('width', width).attr('height', height);
  part<SVGGElement>(root, 'g', 'axis y')
    .attr('transform', `translate(${margin.left},0)`)
    .call(
      axisLeft(sc.y)
        .ticks(3)
        .tickFormat((v) => usFormat(+v)),
    );
  part<SVGGElement>(root, 'g', 'axis x')
    .attr('transform', `translate(0,${height - margin.bottom})`)
    .call(
      axisBottom(sc.x)
        .ticks(Math.max(2, Math.floor(width / 110)))
        .tickFormat(format('~s')),
    );
  part(root, 'path', 'mean').attr('d', stepPath({ ...series, max: series.mean }, sc));
  part(root, 'path', 'max').attr('d', stepPath(series, sc));
  drawBound(root, bound, sc.y(bound?.us ?? 0), box);
  const x = sc.x(pos);
  part(root, 'line', 'now')
    .attr('x1', x)
    .attr('x2', x)
    .attr('y1', margin.top)
    .attr('y2', height - margin.bottom);
  const jump = (b: number) => series.argmax[b] >= 0 && on.jump(b);
  part(root, 'rect', 'hit')
    .attr('x', margin.left)
    .attr('y', margin.top)
    .attr('width', Math.max(0, width - margin.left - margin.right))
    .attr('height', height - margin.top - margin.bottom)
    .on('mousemove', (e: MouseEvent) => {
      const b = sc.binAt(e.offsetX);
      on.hover(
        b >= 0 && series.argmax[b] >= 0
          ? `request #${series.argmax[b].toLocaleString('en-US')}: ${formatNs(series.max[b] * 1000)}`
          : '',
      );
    })
    .on('mouseleave', () => on.hover(''))
    .on('click', (e: MouseEvent) => {
      const b = sc.binAt(e.offsetX);
      if (b >= 0) jump(b);
    });
  part<SVGGElement>(root, 'g', 'spikes')
    .selectAll<SVGCircleElement, number>('circle')
    .data(spikes(series, SPIKES, Math.ceil(series.max.length / 40)), (b) => b)
    .join('circle')
    .attr('class', 'spike')
    .attr('r', 4)
    .attr('cx', (b) => sc.x(series.argmax[b] + 0.5))
    .attr('cy', (b) => sc.y(series.max[b]))
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr('aria-label', (b) => `Spike: request #${series.argmax[b]}, ${formatNs(series.max[b] * 1000)}; go there`)
    .on('click', (_e, b) => jump(b))
    .on('keydown', (e: KeyboardEvent, b) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        jump(b);
      }
    });
}

/** The bound as a labelled horizontal line at `y`, or nothing (removed) when there is none. */
function drawBound(root: Svg, bound: ResponseChartData['bound'], y: number, box: ChartBox) {
  if (!bound) {
    root.select('g.bound').remove();
    return;
  }
  const { width, margin } = box;
  const g = part<SVGGElement>(root, 'g', 'bound').attr('data-testid', 'response-bound');
  const line = g.select<SVGLineElement>('line');
  (line.empty() ? g.append('line') : line)
    .attr('x1', margin.left)
    .attr('x2', width - margin.right)
    .attr('y1', y)
    .attr('y2', y)
    .attr('stroke-dasharray', '6 3');
  const text = g.select<SVGTextElement>('text');
  (text.empty() ? g.append('text') : text)
    .attr('x', width - margin.right - 4)
    .attr('y', y - 3)
    .attr('text-anchor', 'end')
    .text(bound.label);
  const title = g.select<SVGTitleElement>('title');
  (title.empty() ? g.append('title') : title).text(
    'The scheme’s analytic worst case for serving one page; queueing and multi-page requests can exceed it.',
  );
}

/** The bound line's label: "RFTL bound L(p) = 2,325 µs". */
export function boundLabel(scheme: string, us: number): string {
  return `${scheme.toUpperCase()} bound L(p) = ${formatNs(us * 1000)}`;
}
