import { useState, type RefObject } from 'react';
import { svgFile } from '../../charts/draw';
import { download, downloadBlob } from '../export';
import { svgToPng } from '../../charts/png';

/** Download SVG and Download PNG for the chart in `svgRef`, named `fileName`.svg / .png. */
export function ChartDownloads({ svgRef, fileName }: { svgRef: RefObject<SVGSVGElement | null>; fileName: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const png = async () => {
    const svg = svgRef.current;
    if (!svg) return;
    setFailed(null);
    try {
      const blob = await svgToPng(svgFile(svg), Number(svg.getAttribute('width')), Number(svg.getAttribute('height')));
      downloadBlob(`${fileName}.png`, blob);
    } catch (e) {
      setFailed((e as Error).message);
    }
  };
  return (
    <span className="compare__downloads">
      <button
        type="button"
        onClick={() => svgRef.current && download(`${fileName}.svg`, svgFile(svgRef.current), 'image/svg+xml')}
      >
        Download SVG
      </button>
      <button type="button" onClick={() => void png()}>
        Download PNG
      </button>
      {failed && <span role="alert">PNG failed: {failed}</span>}
    </span>
  );
}

/**
 * A chart's head: its title with the download buttons, and the line that shows what the
 * pointer or keyboard is on (`hover`, or `idle` when nothing is).
 */
export function ChartHead(p: {
  title: string;
  level?: 3 | 4;
  svgRef: RefObject<SVGSVGElement | null>;
  fileName: string;
  hover: string;
  idle: string;
}) {
  const Heading = p.level === 4 ? 'h4' : 'h3';
  return (
    <>
      <div className="compare__charthead">
        <Heading>{p.title}</Heading>
        <ChartDownloads svgRef={p.svgRef} fileName={p.fileName} />
      </div>
      <p className="compare__hover" aria-live="off">
        {p.hover || p.idle}
      </p>
    </>
  );
}
