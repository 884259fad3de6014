import { useEffect, useMemo, useRef, useState } from 'react';
import { useSim, useStore } from '../../store/useSim';
import { drawGrid } from './draw';
import { gridLayout, hitTest } from './layout';
import { FREE_PAGE, INVALID_PAGE, ROLES, VICTIM_OUTLINE } from './palette';
import './BlockGrid.css';

/** Every page of every block, coloured by state and block role; the last GC victim outlined. */
export function BlockGrid() {
  const store = useStore();
  const info = useSim((s) => s.info);
  const frame = useSim((s) => s.frame);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [box, setBox] = useState({ w: 600, h: 400 });
  const [hover, setHover] = useState<string>('');

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      setBox({ w: Math.max(100, Math.floor(width)), h: Math.max(100, Math.floor(height)) });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const layout = useMemo(
    () => (info ? gridLayout(info.blocks, info.pagesPerBlock, box.w, box.h) : null),
    [info, box.w, box.h],
  );

  useEffect(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx || !layout || !frame || !info) return;
    drawGrid(ctx, layout, frame, info.pagesPerBlock, store.counter('last_gc_victim'));
  }, [layout, frame, info, store]);

  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    if (!layout || !info || !frame) return;
    const r = e.currentTarget.getBoundingClientRect();
    const hit = hitTest(layout, info.blocks, e.clientX - r.left, e.clientY - r.top);
    if (!hit) return setHover('');
    const state = ['free', 'valid', 'invalid'][frame.pageStates[hit.block * info.pagesPerBlock + hit.page]];
    const role = ROLES[frame.blockRoles[hit.block]]?.name ?? '?';
    setHover(
      `block ${hit.block} (${role}, ${frame.validCounts[hit.block]} valid, erased ${frame.eraseCounts[hit.block]}x) · page ${hit.page}: ${state}`,
    );
  };

  return (
    <section className="block-grid" aria-label="Block grid">
      <div className="block-grid__box" ref={boxRef}>
        {layout && (
          <canvas
            ref={canvasRef}
            width={layout.width}
            height={layout.height}
            role="img"
            aria-label={info ? `${info.blocks} blocks of ${info.pagesPerBlock} pages` : 'block grid'}
            data-testid="block-grid"
            onMouseMove={onMove}
            onMouseLeave={() => setHover('')}
          />
        )}
      </div>
      <div className="block-grid__footer">
        <ul className="legend" aria-label="Legend">
          <li><span className="swatch" style={{ background: FREE_PAGE }} />free page</li>
          <li><span className="swatch" style={{ background: ROLES[1].color }} />valid (data block)</li>
          <li><span className="swatch" style={{ background: ROLES[7].color }} />valid (open block)</li>
          <li><span className="swatch" style={{ background: INVALID_PAGE }} />invalid page</li>
          <li><span className="swatch swatch--outline" style={{ borderColor: VICTIM_OUTLINE }} />last GC victim</li>
        </ul>
        <output className="block-grid__hover" aria-live="polite">{hover}</output>
      </div>
    </section>
  );
}
