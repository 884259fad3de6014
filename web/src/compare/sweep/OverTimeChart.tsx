import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { ChartDownloads } from '../charts/ChartDownloads';
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
      <div className="compare__charthead">
        <h4>{data.title}</h4>
        <ChartDownloads svgRef={svgRef} fileName={fileName} />
      </div>
      <p className="compare__hover" aria-live="off">
        {hover || '\u00a0'}
      </p>
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="over-time-chart" data-reading={data.y.label} />
      </div>
    </section>
  );
}
