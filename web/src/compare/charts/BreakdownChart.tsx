import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { drawBreakdown, type BreakdownData } from '../../charts/breakdown';
import { ChartHead } from './ChartDownloads';

const HEIGHT = 280;
const MARGIN = { top: 12, right: 12, bottom: 62, left: 56 };

/** Seed 003's four-part time breakdown, one stacked bar per configuration (mount it when `data` has some). */
export function BreakdownChart({ data, fileName }: { data: BreakdownData; fileName: string }) {
  const [hover, setHover] = useState('');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 480, 300);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => {
    if (!svgRef.current) return;
    setHover('');
    drawBreakdown(svgRef.current, data, { width, height: HEIGHT, margin: MARGIN }, setHover);
  }, [data, width]);

  return (
    <section className="compare__chart" aria-label={data.title}>
      <ChartHead
        title={data.title}
        svgRef={svgRef}
        fileName={`${fileName}-time-breakdown`}
        hover={hover}
        idle="Hover or focus a segment for its value."
      />
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="time-breakdown-chart" />
      </div>
    </section>
  );
}
