import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { useSim, useStore } from '../../store/useSim';
import { useThrottled } from '../../ui/useThrottled';
import type { ChartBox } from './chartScales';
import { boundLabel, drawResponseChart } from './draw';

const HEIGHT = 118;
const MARGIN = { top: 8, right: 10, bottom: 18, left: 46 };

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
  const scheme = useSim((s) => s.info?.scheme ?? '');
  const boundUs = useSim((s) => s.info?.responseBoundUs);
  const playing = useSim((s) => s.status === 'playing');
  // While playing, the position marker moves a few times a second (redrawing the chart on
  // every frame would cost the grid its frame rate).
  const pos = useThrottled(
    useSim((s) => s.pos.request),
    250,
    playing,
  );
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 600, 200);
  const svgRef = useRef<SVGSVGElement>(null);
  const [hover, setHover] = useState<string>('');

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !series || total === 0) return;
    const box: ChartBox = { width, height: HEIGHT, margin: MARGIN };
    const bound = boundUs != null ? { us: boundUs, label: boundLabel(scheme, boundUs) } : undefined;
    drawResponseChart(svg, { series, total, pos, bound }, box, {
      jump: (b) => void store.seek(series.argmax[b] + 1),
      hover: setHover,
    });
  }, [series, total, pos, width, store, scheme, boundUs]);

  return (
    <section className="chart" aria-label="Response time per request">
      <div className="chart__head">
        <h2>Response time per request</h2>
        <p aria-live="off">
          {hover ||
            (series && series.binSize > 1
              ? `largest of every ${series.binSize} requests; click a spike to go there`
              : 'click a spike to go there')}
        </p>
      </div>
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="response-chart" />
      </div>
    </section>
  );
}
