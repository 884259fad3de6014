import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PageInfo } from '../../engine/pageTable';
import { prefillNote } from '../../narration/context';
import { SPEEDS } from '../../store/speeds';
import { useSim, useStore } from '../../store/useSim';
import { useThrottled } from '../../store/useThrottled';
import { gridProbe, MAIN_GRID, recordPaint } from '../../testing/drawProbe';
import { GridPainter } from './draw';
import { gridHighlight } from './highlight';
import { describeDuty, describePage } from './hoverText';
import type { BlockDuty } from '../../engine/inspection';
import { drawLabels, LABEL_MIN_CELL } from './labels';
import { GridOverview } from './GridOverview';
import { gridLayout, gridWindow, hitTest } from './layout';
import { scrollTopFor } from './overview';
import { Legend } from './Legend';
import { animationMs } from './animation';
import { associationOf, blockMarks } from './association';
import { drawOverlay } from './overlay';
import './BlockGrid.css';


/**
 * Every page of every block, coloured by state and block role (or erase-count heat), with
 * the GC victim outlined and GC copies animated on a second canvas above the pages.
 * `probeId` names this grid's test probe (several grids must not share one).
 */
export function BlockGrid({ probeId = MAIN_GRID }: { probeId?: string } = {}) {
  const store = useStore();
  const info = useSim((s) => s.info);
  const frame = useSim((s) => s.frame);
  const heat = useSim((s) => s.heat);
  const seq = useSim((s) => s.seq);
  const boxRef = useRef<HTMLDivElement>(null);
  const stackRef = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const painterRef = useRef<GridPainter | null>(null);
  const [box, setBox] = useState({ w: 600, h: 400 });
  // Where the box is scrolled over the grid and how tall its view is (gridWindow).
  const [scroll, setScroll] = useState({ y: 0, h: 0 });
  const measureScroll = () => {
    const el = boxRef.current;
    if (el) setScroll({ y: el.scrollTop - (stackRef.current?.offsetTop ?? 0), h: el.clientHeight });
  };
  const [hover, setHover] = useState<{ ppn: number; pinned: boolean } | null>(null);
  const [hoverInfo, setHoverInfo] = useState<{ ppn: number; info: PageInfo | null } | null>(null);
  const [hoverDuty, setHoverDuty] = useState<BlockDuty | null>(null);
  const midRequest = useSim((s) => s.pos.op > 0);
  const [shown, setShown] = useState<ReturnType<typeof gridHighlight> | null>(null);
  const inspection = useSim((s) => s.inspection);
  // Log-block schemes pair log and data blocks: the block under the pointer shows its
  // partners, from the engine's RAM inspection (fetched for the hovered block).
  const pairs = !!info?.spec.stops.includes('merge');
  const hoverBlock = hover && info ? Math.floor(hover.ppn / info.pagesPerBlock) : null;
  const assoc = useMemo(() => (pairs && hoverBlock !== null ? associationOf(inspection, hoverBlock) : null), [pairs, hoverBlock, inspection]);
  const assocRef = useRef(assoc);
  assocRef.current = assoc;
  // While playing, at most every half second (as the cache panel): never every frame.
  const playing = useSim((s) => s.status === 'playing');
  const assocSeq = useThrottled(seq, 500, playing);
  useEffect(() => {
    if (pairs && hoverBlock !== null) void store.refreshInspection();
  }, [pairs, hoverBlock, assocSeq, store]);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      setBox({ w: Math.max(100, Math.floor(width)), h: Math.max(100, Math.floor(height)) });
      measureScroll();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const layout = useMemo(() => (info ? gridLayout(info.blocks, info.pagesPerBlock, box.w, box.h) : null), [info, box.w, box.h]);
  const labels = !!layout && layout.cell >= LABEL_MIN_CELL;
  // Until the box is measured, its last known size (never the whole of a tall grid).
  const viewH = scroll.h || box.h;
  const win = useMemo(() => (layout ? gridWindow(layout, scroll.y, viewH) : null), [layout, scroll.y, viewH]);
  // A grid taller than its box scrolls: the overview beside it shows the whole device.
  const overview = !!layout && layout.height > viewH + 8;
  const winTopRef = useRef(0);
  winTopRef.current = win?.top ?? 0;

  // Pages: incremental repaint of the blocks that changed, timed for the frame-time figures.
  useLayoutEffect(() => {
    const ctx = pagesRef.current?.getContext('2d');
    if (!ctx || !layout || !frame || !info || !win) return;
    if (painterRef.current?.layout !== layout) painterRef.current = new GridPainter(layout, info.blocks, info.pagesPerBlock);
    const painter = painterRef.current;
    const t0 = performance.now();
    if (labels) painter.invalidate(); // labels are drawn over the image, so repaint it whole
    painter.paint(ctx, frame, heat, win);
    const probe = gridProbe(probeId);
    probe.layout = layout;
    probe.pagesPerBlock = info.pagesPerBlock;
    if (labels) drawLabels(ctx, layout, info.pagesPerBlock, frame, heat);
    recordPaint(performance.now() - t0);
  }, [layout, frame, info, heat, labels, probeId, win]);

  // Overlay: victim, current operation, GC copies in flight, hover. A new view from the
  // engine (seq) starts an animation; hover only redraws, at the animation's progress.
  const hoverPpn = hover?.ppn ?? null;
  const hoverRef = useRef<number | null>(null);
  hoverRef.current = hoverPpn;
  const anim = useRef<{ hl: ReturnType<typeof gridHighlight>; t: number } | null>(null);
  useEffect(() => {
    const ctx = overlayRef.current?.getContext('2d');
    const s = store.getState();
    if (!ctx || !layout || !info) return;
    const ppb = info.pagesPerBlock;
    const hl = gridHighlight(s.current, s.pos, store.counter('last_gc_victim'), ppb);
    gridProbe(probeId).highlight = hl;
    setShown(hl);
    const ms = animationMs(s.pos, hl, SPEEDS[s.speed], s.status === 'playing');
    const a = { hl, t: ms === 0 ? 1 : 0 };
    anim.current = a;
    if (a.t >= 1) {
      drawOverlay(ctx, layout, ppb, hl, 1, hoverRef.current, assocRef.current, winTopRef.current);
      return;
    }
    const start = performance.now();
    let raf = 0;
    const tick = (now: number) => {
      a.t = Math.min(1, (now - start) / ms);
      drawOverlay(ctx, layout, ppb, hl, a.t, hoverRef.current, assocRef.current, winTopRef.current);
      if (a.t < 1) raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(raf);
      a.t = 1;
    };
  }, [seq, layout, info, store, probeId]);

  useEffect(() => {
    const ctx = overlayRef.current?.getContext('2d');
    const a = anim.current;
    // While animating, the next animation frame draws the hover anyway.
    // A new window (or a resized canvas, which clears it) needs the overlay again.
    if (ctx && layout && info && win && a && a.t >= 1) drawOverlay(ctx, layout, info.pagesPerBlock, a.hl, 1, hoverPpn, assoc, win.top);
  }, [hoverPpn, assoc, layout, info, win]);
  const marks = useMemo(() => blockMarks(shown, assoc), [shown, assoc]);

  // What the hovered page holds comes from the worker's page table.
  useEffect(() => {
    if (hoverPpn === null) return;
    let live = true;
    void store.pageInfo(hoverPpn).then((i) => live && setHoverInfo({ ppn: hoverPpn, info: i }));
    return () => {
      live = false;
    };
  }, [hoverPpn, seq, store]);

  // What the hovered block does for its logical block (role, GC state), from the scheme;
  // throttled while playing like the association above.
  useEffect(() => {
    if (hoverBlock === null) return;
    let live = true;
    void store.blockDuty(hoverBlock).then((d) => live && setHoverDuty(d));
    return () => {
      live = false;
    };
  }, [hoverBlock, assocSeq, store]);

  const pageAt = (e: React.PointerEvent<HTMLCanvasElement>): number | null => {
    if (!layout || !info) return null;
    // The stack spans the whole grid; the canvas only the rows in its window.
    const r = (stackRef.current ?? e.currentTarget).getBoundingClientRect();
    const hit = hitTest(layout, info.blocks, e.clientX - r.left, e.clientY - r.top);
    return hit ? hit.block * info.pagesPerBlock + hit.page : null;
  };

  /**
   * The keyboard's page cursor (focus the grid with Tab): ← → one page, ↑ ↓ one block,
   * Esc lets go. The page gets the hover ring and the same details as hover. A click does
   * not focus the grid (onMouseDown), so after a click the arrows still step the timeline.
   */
  const onGridKey = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    if (!info) return;
    const pages = info.blocks * info.pagesPerBlock;
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -info.pagesPerBlock, ArrowDown: info.pagesPerBlock };
    if (e.key === 'Escape') return setHover(null);
    const d = moves[e.key];
    if (d === undefined || e.shiftKey) return;
    e.preventDefault();
    const from = hover?.ppn ?? 0;
    setHover({ ppn: Math.max(0, Math.min(pages - 1, from + d)), pinned: true });
  };

  const text =
    hover && frame && info
      ? describePage(frame, info.pagesPerBlock, hover.ppn, hoverInfo?.ppn === hover.ppn ? hoverInfo.info : undefined) +
        describeDuty(hoverDuty, Math.floor(hover.ppn / info.pagesPerBlock), midRequest)
      : 'Hover or tap a page to see what it holds.';

  return (
    <section className="block-grid" aria-label="Block grid">
      <div className="block-grid__main">
      {overview && layout && win && (
        <GridOverview
          layout={layout}
          win={win}
          height={box.h}
          onJump={(block) => {
            const el = boxRef.current;
            if (el) el.scrollTop = (stackRef.current?.offsetTop ?? 0) + scrollTopFor(layout, block);
          }}
        />
      )}
      <div className="block-grid__box" ref={boxRef} onScroll={measureScroll}>
        {layout && win && (
          <div className="block-grid__stack" ref={stackRef} style={{ width: layout.width, height: layout.height }}>
            <canvas
              ref={pagesRef}
              width={layout.width}
              height={win.height}
              style={{ top: win.top }}
              role="application"
              aria-roledescription="block grid"
              aria-label={info ? `Block grid: ${info.blocks} blocks of ${info.pagesPerBlock} pages${heat ? ', coloured by erase count' : ''}. Arrow keys move a page cursor: left and right one page, up and down one block.` : 'block grid'}
              aria-describedby="page-info"
              tabIndex={0}
              data-own-arrows=""
              onKeyDown={onGridKey}
              onFocus={() => hover === null && setHover({ ppn: 0, pinned: true })}
              onMouseDown={(e) => e.preventDefault()}
              data-testid="block-grid"
              onPointerMove={(e) => {
                if (e.pointerType !== 'mouse' || hover?.pinned) return;
                const ppn = pageAt(e);
                setHover(ppn === null ? null : { ppn, pinned: false });
              }}
              onPointerLeave={() => !hover?.pinned && setHover(null)}
              onPointerDown={(e) => {
                const ppn = pageAt(e);
                setHover(ppn === null || (hover?.pinned && hover.ppn === ppn) ? null : { ppn, pinned: true });
              }}
            />
            <canvas ref={overlayRef} className="block-grid__overlay" width={layout.width} height={win.height} style={{ top: win.top }} aria-hidden="true" />
          </div>
        )}
      </div>
      </div>
      <ul className="sr-only" aria-label="Blocks marked on the grid" data-testid="grid-marks">
        {marks.map((m, i) => (
          <li key={i} data-block={m.block} data-mark={m.mark}>
            {m.text}
          </li>
        ))}
      </ul>
      <div className="block-grid__footer">
        <Legend heat={heat} frame={frame} labels={labels && !!frame?.pageKeys} merges={pairs} />
        {info && prefillNote(info.prefilled, info.prefill) && (
          <p className="block-grid__note" data-testid="prefill-note">
            {prefillNote(info.prefilled, info.prefill)}
          </p>
        )}
        <output className="block-grid__hover" id="page-info" aria-live="polite" data-testid="page-info">
          {text}
        </output>
      </div>
    </section>
  );
}
