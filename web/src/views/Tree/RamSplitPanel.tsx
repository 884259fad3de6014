import { useEffect, useMemo, useRef, useState } from 'react';
import { drawLines } from '../../charts/lines';
import type { RunMetrics } from '../../engine/metrics';
import { useSim, useStore } from '../../store/useSim';
import { useThrottled } from '../../ui/useThrottled';
import { ramSplitSoFar, ramSplitWords } from './ramSplit';

/** While playing, the metrics are asked for at most this often (ms), as the tree. */
const PLAYING_EVERY_MS = 500;
const BOX = { width: 420, height: 200, margin: { top: 12, right: 12, bottom: 62, left: 56 } };

/**
 * The running scheme's RAM split (mapping vs buffered data) over the requests served so
 * far, with a rule at the timeline's position. It asks the engine for its
 * metrics where the timeline stands, so stepping back redraws the split as it was; a click
 * or Enter on a window seeks the timeline to that window's end. Shown for any scheme whose
 * series carries a split.
 */
export function RamSplitPanel() {
  const store = useStore();
  const playing = useSim((s) => s.status === 'playing');
  const seq = useThrottled(
    useSim((s) => s.seq),
    PLAYING_EVERY_MS,
    playing,
  );
  const info = useSim((s) => s.info);
  const [m, setM] = useState<RunMetrics | undefined>();
  const svgRef = useRef<SVGSVGElement>(null);
  const [said, setSaid] = useState('');

  useEffect(() => {
    if (!info || !store.live) return;
    let live = true;
    store.client
      .request<'metrics'>({ type: 'metrics' })
      .then((r) => {
        if (live) setM(JSON.parse(r.json) as RunMetrics);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [seq, info, store]);

  const done = m?.requests_done ?? 0;
  const name = info?.spec.name;
  const data = useMemo(
    () => (m ? ramSplitSoFar(m.series, done, { id: m.scheme, name: name ?? m.scheme, color: '#4e79a7' }) : undefined),
    [m, done, name],
  );
  useEffect(() => {
    // A click (or Enter) on a window moves the timeline to its end: the panel drives the timeline too.
    setSaid('');
    if (svgRef.current && data) drawLines(svgRef.current, data, BOX, setSaid, (x) => void store.seek(x));
  }, [data, store]);

  if (!data) return null;
  return (
    <section className="tree__ram" data-testid="ram-split-panel" aria-label="RAM split over the requests served">
      <h3>RAM: mapping vs buffer</h3>
      <p className="tree__meta" data-testid="ram-split-words">
        {said || ramSplitWords(m?.series, done)}
      </p>
      <svg ref={svgRef} data-testid="ram-split-svg" />
      <p className="tree__meta">Click a point (or focus the chart, arrow keys, Enter) to move the timeline there.</p>
    </section>
  );
}
