import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../ui/useElementWidth';
import { chartData, DEFAULT_CHART_COLUMNS } from './chartData';
import { ChartHead } from './charts/ChartDownloads';
import { drawCompareChart } from '../charts/draw';
import type { RunMetrics } from '../engine/metrics';
import type { Column } from './metrics';

const HEIGHT = 260;
const MARGIN = { top: 10, right: 8, bottom: 58, left: 44 };
/** Below this width the metric labels slant and need more room under the axis. */
const NARROW = 640;

export interface CompareChartProps {
  runs: RunMetrics[];
  columns: Column[];
  baseline: string;
  names: Map<string, { name: string; color: string }>;
  /** Download name without extension. */
  fileName: string;
}

/** Bars normalised to the baseline for the metrics picked below the chart; SVG download. */
export function CompareChart({ runs, columns, baseline, names, fileName }: CompareChartProps) {
  const [picked, setPicked] = useState<string[]>(DEFAULT_CHART_COLUMNS);
  const [hover, setHover] = useState('');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 400, 260);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const shown = columns.filter((c) => picked.includes(c.id));
    drawCompareChart(
      svg,
      chartData(runs, shown, baseline, names),
      {
        width,
        height: HEIGHT + (width < NARROW ? 30 : 0),
        margin: width < NARROW ? { ...MARGIN, bottom: MARGIN.bottom + 30 } : MARGIN,
      },
      setHover,
    );
  }, [runs, columns, picked, baseline, names, width]);

  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  return (
    <section className="compare__chart" aria-label="Comparison chart">
      <ChartHead
        title={`Relative to ${names.get(baseline)?.name ?? baseline}`}
        svgRef={svgRef}
        fileName={fileName}
        hover={hover}
        idle="Hover or focus a bar for its value."
      />
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT + (width < NARROW ? 30 : 0)} data-testid="compare-chart" />
      </div>
      <details>
        <summary>Metrics in the chart</summary>
        <div className="compare__picks">
          {columns.map((c) => (
            <label key={c.id}>
              <input type="checkbox" checked={picked.includes(c.id)} onChange={() => toggle(c.id)} /> {c.label}
            </label>
          ))}
        </div>
      </details>
    </section>
  );
}
