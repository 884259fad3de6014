import { useEffect, useRef } from 'react';
import type { TraceSummary } from '../engine/protocol';
import { drawHeatStrip, drawSizeHistogram } from './draw';

/** Request sizes as bars over power-of-two buckets (drawn by draw.ts). */
export function SizeHistogram({ buckets }: { buckets: TraceSummary['size_histogram'] }) {
  const ref = useRef<SVGSVGElement>(null);
  const any = buckets.some((b) => b.count > 0);
  useEffect(() => {
    if (ref.current && any) drawSizeHistogram(ref.current, buckets);
  }, [buckets, any]);
  return any ? <svg ref={ref} className="size-histogram" /> : null;
}

/** Where in the address space requests land (drawn by draw.ts). */
export function HeatStrip({ heat }: { heat: TraceSummary['heat'] }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current) drawHeatStrip(ref.current, heat);
  }, [heat]);
  return <svg ref={ref} className="heat-strip" />;
}
