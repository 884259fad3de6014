import { useEffect, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import { svgFile } from '../../charts/draw';
import { download } from '../export';
import { drawLines } from '../../charts/lines';
import { sweepLines, type SweepChartData } from './draw';

const HEIGHT = 230;
const MARGIN = { top: 10, right: 10, bottom: 44, left: 48 };

/** One metric's lines over the swept values; hover values; SVG download. */
export function SweepChart({ data, fileName }: { data: SweepChartData; fileName: string }) {
  const [hover, setHover] = useState('');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 360, 260);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => {
    if (svgRef.current)
      drawLines(svgRef.current, sweepLines(data), { width, height: HEIGHT, margin: MARGIN }, setHover);
  }, [data, width]);

  return (
    <section className="sweep__chart" aria-label={`${data.label} against ${data.xTitle}`}>
      <div className="compare__charthead">
        <h4>{data.unit ? `${data.label} (${data.unit})` : data.label}</h4>
        <button
          type="button"
          onClick={() =>
            svgRef.current && download(`${fileName}-${data.metric}.svg`, svgFile(svgRef.current), 'image/svg+xml')
          }
        >
          SVG
        </button>
      </div>
      <p className="compare__hover" aria-live="off">
        {hover || '\u00a0'}
      </p>
      <div ref={wrapRef}>
        <svg ref={svgRef} width={width} height={HEIGHT} data-testid="sweep-chart" data-metric={data.metric} />
      </div>
    </section>
  );
}
