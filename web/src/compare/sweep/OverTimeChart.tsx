import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { ChartHead } from '../charts/ChartDownloads';
import { drawLines, type LinesData } from '../../charts/lines';

const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 62, left: 56 };

/** One over-time reading of a paper experiment as lines (the comparison's line chart). */
export function OverTimeChart({ data, fileName }: { data: LinesData; fileName: string }) {
  const [hover, setHover] = useState('');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 360, 260);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => {
    if (svgRef.current) drawLines(svgRef.current, data, { width, height: HEIGHT, margin: MARGIN }, setHover);
  }, [data, width]);

  return (
    <section className="sweep__chart" aria-label={data.title}>
      <ChartHead title={data.title} level={4} svgRef={svgRef} fileName={fileName} hover={hover} idle={'\u00a0'} />
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="over-time-chart" data-reading={data.y.label} />
      </div>
    </section>
  );
}
