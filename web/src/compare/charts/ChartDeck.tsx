import { useEffect, useMemo, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { CompareChart } from '../CompareChart';
import type { RunMetrics } from '../../engine/metrics';
import type { Column } from '../metrics';
import { ChartHead } from './ChartDownloads';
import { CHARTS, type ChartSpec, type Keys } from '../../charts/data';
import { drawPanels, stacksPanels } from '../../charts/grouped';
import { drawLines } from '../../charts/lines';

const RELATIVE = 'relative';
const HEIGHT = 300;
const MARGIN = { top: 12, right: 12, bottom: 62, left: 56 };

export interface ChartDeckProps {
  runs: RunMetrics[];
  columns: Column[];
  baseline: string | null;
  names: Keys;
  /** Download name without extension; the chart's id is appended. */
  fileName: string;
}

/**
 * The comparison's charts behind one picker (a native select, so keyboard and screen readers
 * work as everywhere): the bars normalised to the baseline, then `CHARTS`. Each can be taken
 * away as SVG or PNG.
 */
export function ChartDeck({ runs, columns, baseline, names, fileName }: ChartDeckProps) {
  const hasBaseline = baseline != null && runs.some((m) => m.scheme === baseline);
  const [picked, setPicked] = useState<string>(RELATIVE);
  const id = picked === RELATIVE && !hasBaseline ? CHARTS[0].id : picked;
  const spec = CHARTS.find((c) => c.id === id);
  return (
    <div className="compare__deck">
      <label className="compare__picker">
        Chart{' '}
        <select value={id} onChange={(e) => setPicked(e.target.value)} aria-label="Chart">
          {hasBaseline && <option value={RELATIVE}>Relative to the baseline</option>}
          {CHARTS.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {spec ? (
        <DeckChart spec={spec} runs={runs} names={names} fileName={`${fileName}-${spec.id}`} />
      ) : (
        <CompareChart
          runs={runs}
          columns={columns}
          baseline={baseline!}
          names={names}
          fileName={`${fileName}-relative`}
        />
      )}
    </div>
  );
}

/** One chart of `CHARTS`, sized to its container. */
function DeckChart({
  spec,
  runs,
  names,
  fileName,
}: {
  spec: ChartSpec;
  runs: RunMetrics[];
  names: Keys;
  fileName: string;
}) {
  const [hover, setHover] = useState('');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 480, 300);
  const svgRef = useRef<SVGSVGElement>(null);

  const drawn = useMemo(
    () =>
      spec.kind === 'panels'
        ? { kind: spec.kind, data: spec.data(runs, names) }
        : { kind: spec.kind, data: spec.data(runs, names) },
    [spec, runs, names],
  );
  // Stacked panels (a narrow box) get a band each.
  const n = drawn.kind === 'panels' ? drawn.data.panels.length : 1;
  const height = drawn.kind === 'panels' && stacksPanels(n, width, MARGIN) ? 40 + n * (HEIGHT - 60) : HEIGHT;

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const box = { width, height, margin: MARGIN };
    setHover(''); // a value read on the chart drawn before would no longer be on screen
    if (drawn.kind === 'panels') drawPanels(svg, drawn.data, box, setHover);
    else drawLines(svg, drawn.data, box, setHover);
  }, [drawn, width, height]);

  return (
    <section className="compare__chart" aria-label={spec.label}>
      <ChartHead
        title={spec.label}
        svgRef={svgRef}
        fileName={fileName}
        hover={hover}
        idle={
          spec.kind === 'lines'
            ? 'Hover the plot, or focus it and use the arrow keys, for values.'
            : 'Hover or focus a bar for its value.'
        }
      />
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={height} data-testid="compare-deck-chart" data-chart={spec.id} />
      </div>
    </section>
  );
}
