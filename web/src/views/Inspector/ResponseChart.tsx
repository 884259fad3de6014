import { axisBottom, axisLeft, format, select } from 'd3';
import { useEffect, useRef, useState } from 'react';
import { formatNs } from '../../narration/narrate';
import { useSim, useStore } from '../../store/useSim';
import { useThrottled } from '../../store/useThrottled';
import { chartScales, spikes, stepPath, type ChartBox } from './chartScales';

const HEIGHT = 118;
const MARGIN = { top: 8, right: 10, bottom: 18, left: 46 };
/** Spikes marked (and reachable by keyboard). */
const SPIKES = 8;

/**
 * Response time per request over the whole trace (largest per bin, dashed mean), the
 * current position, and the biggest spikes as buttons: clicking a spike (or anywhere on
 * the plot) moves the timeline to just after that request, so the inspector and the
 * narration explain it.
 */
export function ResponseChart() {
  const store = useStore();
  const series = useSim((s) => s.responses);
  const total = useSim((s) => s.info?.total ?? 0);
  const playing = useSim((s) => s.status === 'playing');
  // While playing, the position marker moves a few times a second (redrawing the chart on
  // every frame would cost the grid its frame rate).
  const pos = useThrottled(useSim((s) => s.pos.request), 250, playing);
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(600);
  const [hover, setHover] = useState<string>('');

  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(200, Math.floor(e.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !series || total === 0) return;
    const box: ChartBox = { width, height: HEIGHT, margin: MARGIN };
    const sc = chartScales(series, total, box);
    const root = select(svg);
    root.select<SVGGElement>('g.y').attr('transform', `translate(${MARGIN.left},0)`).call(
      axisLeft(sc.y).ticks(3).tickFormat((v) => (+v >= 1000 ? `${format('~g')(+v / 1000)} ms` : `${format('~g')(+v)} µs`)),
    );
    root.select<SVGGElement>('g.x').attr('transform', `translate(0,${HEIGHT - MARGIN.bottom})`).call(
      axisBottom(sc.x).ticks(Math.max(2, Math.floor(width / 110))).tickFormat(format('~s')),
    );
    root.select('path.max').attr('d', stepPath(series, sc));
    root.select('path.mean').attr('d', stepPath({ ...series, max: series.mean }, sc));
    const x = sc.x(pos);
    root.select('line.now').attr('x1', x).attr('x2', x).attr('y1', MARGIN.top).attr('y2', HEIGHT - MARGIN.bottom);
    const jump = (b: number) => series.argmax[b] >= 0 && void store.seek(series.argmax[b] + 1);
    root
      .select('g.spikes')
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
    root
      .select('rect.hit')
      .attr('x', MARGIN.left)
      .attr('y', MARGIN.top)
      .attr('width', Math.max(0, width - MARGIN.left - MARGIN.right))
      .attr('height', HEIGHT - MARGIN.top - MARGIN.bottom)
      .on('mousemove', (e: MouseEvent) => {
        const b = sc.binAt(e.offsetX);
        setHover(b >= 0 && series.argmax[b] >= 0 ? `request #${series.argmax[b].toLocaleString('en-US')}: ${formatNs(series.max[b] * 1000)}` : '');
      })
      .on('mouseleave', () => setHover(''))
      .on('click', (e: MouseEvent) => {
        const b = sc.binAt(e.offsetX);
        if (b >= 0) jump(b);
      });
  }, [series, total, pos, width, store]);

  return (
    <section className="chart" aria-label="Response time per request">
      <div className="chart__head">
        <h2>Response time per request</h2>
        <p aria-live="off">{hover || (series && series.binSize > 1 ? `largest of every ${series.binSize} requests; click a spike to go there` : 'click a spike to go there')}</p>
      </div>
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="response-chart">
          <g className="axis y" />
          <g className="axis x" />
          <path className="mean" />
          <path className="max" />
          <line className="now" />
          <rect className="hit" />
          <g className="spikes" />
        </svg>
      </div>
    </section>
  );
}
