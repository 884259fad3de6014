/**
 * The block grid's hooks, one job each: the box it is drawn in (size and scroll), the pages'
 * incremental paint, the overlay's animation of each new view, and what the page or block
 * under the pointer holds (the worker's page table, the engine's block pairs). BlockGrid.tsx
 * composes them and renders.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { BlockDuty } from '../../engine/inspection';
import type { PageInfo } from '../../engine/pageTable';
import type { FrameData, SimInfo } from '../../engine/protocol';
import { SPEEDS } from '../../store/speeds';
import { useInspection } from '../../store/useInspection';
import { useStore } from '../../store/useSim';
import { animationMs } from './animation';
import { associationOf, type Association } from './association';
import { GridPainter } from './draw';
import { gridProbe, recordPaint } from './drawProbe';
import { gridHighlight, type GridHighlight } from './highlight';
import { drawLabels } from './labels';
import { gridLayout, type GridLayout, type GridWindow } from './layout';
import { drawOverlay } from './overlay';

/** The box's size (followed with a ResizeObserver) and where it is scrolled over the grid. */
export function useGridBox(boxRef: RefObject<HTMLDivElement | null>, stackRef: RefObject<HTMLDivElement | null>) {
  const [box, setBox] = useState({ w: 600, h: 400 });
  // Where the box is scrolled over the grid and how tall its view is (gridWindow).
  const [scroll, setScroll] = useState({ y: 0, h: 0 });
  const measureScroll = () => {
    const el = boxRef.current;
    if (el) setScroll({ y: el.scrollTop - (stackRef.current?.offsetTop ?? 0), h: el.clientHeight });
  };
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
    // Once: measureScroll reads refs only.
  }, []);
  return { box, scroll, measureScroll };
}

/**
 * The grid's layout for the box, kept as the same object while its values stay the same: a
 * new layout means a new painter, which repaints every block (hundreds of ms on the largest
 * presets), and the box's height often changes without changing the layout (a device whose
 * cells are at their smallest scrolls, so only the width places its tiles).
 */
export function useStableLayout(info: SimInfo | undefined, box: { w: number; h: number }): GridLayout | null {
  const last = useRef<KeptLayout | null>(null);
  return useMemo(() => {
    last.current = info
      ? keepLayout(last.current, info, gridLayout(info.blocks, info.pagesPerBlock, box.w, box.h))
      : null;
    return last.current?.layout ?? null;
  }, [info, box.w, box.h]);
}

/** A layout and the device it was made for. */
export interface KeptLayout {
  info: SimInfo;
  layout: GridLayout;
}

/** `prev` when it is for the same device and has `next`'s values, else `next`. */
export function keepLayout(prev: KeptLayout | null, info: SimInfo, next: GridLayout): KeptLayout {
  const same =
    !!prev &&
    prev.info === info &&
    (Object.keys(next) as (keyof GridLayout)[]).every((k) => prev.layout[k] === next[k]);
  return same && prev ? prev : { info, layout: next };
}

/** Pages: incremental repaint of the blocks that changed, timed for the frame-time figures. */
export function useGridPaint(
  pagesRef: RefObject<HTMLCanvasElement | null>,
  g: {
    layout: GridLayout | null;
    frame: FrameData | undefined;
    info: SimInfo | undefined;
    heat: boolean;
    labels: boolean;
    probeId: string;
    win: GridWindow | null;
  },
) {
  const painterRef = useRef<GridPainter | null>(null);
  const { layout, frame, info, heat, labels, probeId, win } = g;
  useLayoutEffect(() => {
    const ctx = pagesRef.current?.getContext('2d');
    if (!ctx || !layout || !frame || !info || !win) return;
    if (painterRef.current?.layout !== layout)
      painterRef.current = new GridPainter(layout, info.blocks, info.pagesPerBlock);
    const painter = painterRef.current;
    const t0 = performance.now();
    if (labels) painter.invalidate(); // labels are drawn over the image, so repaint it whole
    painter.paint(ctx, frame, heat, win);
    const probe = gridProbe(probeId);
    probe.layout = layout;
    probe.pagesPerBlock = info.pagesPerBlock;
    if (labels) drawLabels(ctx, layout, info.pagesPerBlock, frame, heat);
    recordPaint(performance.now() - t0);
  }, [pagesRef, layout, frame, info, heat, labels, probeId, win]);
}

/**
 * Overlay: victim, current operation, GC copies in flight, hover. A new view from the
 * engine (`seq`) starts an animation; hover only redraws, at the animation's progress.
 * Returns the highlight on show (for the marks the screen reader lists).
 */
export function useOverlayAnimation(
  overlayRef: RefObject<HTMLCanvasElement | null>,
  g: {
    seq: number;
    layout: GridLayout | null;
    info: SimInfo | undefined;
    probeId: string;
    win: GridWindow | null;
    hoverPpn: number | null;
    assoc: Association | null;
  },
): GridHighlight | null {
  const store = useStore();
  const { seq, layout, info, probeId, win, hoverPpn, assoc } = g;
  const [shown, setShown] = useState<GridHighlight | null>(null);
  // The animation's frames read the latest hover, pairs and window without restarting it.
  const latest = useRef({ hoverPpn, assoc, top: win?.top ?? 0 });
  latest.current = { hoverPpn, assoc, top: win?.top ?? 0 };
  const anim = useRef<{ hl: GridHighlight; t: number } | null>(null);
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
    const draw = () =>
      drawOverlay(ctx, layout, ppb, hl, a.t, latest.current.hoverPpn, latest.current.assoc, latest.current.top);
    if (a.t >= 1) return draw();
    const start = performance.now();
    let raf = 0;
    const tick = (now: number) => {
      a.t = Math.min(1, (now - start) / ms);
      draw();
      if (a.t < 1) raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(raf);
      a.t = 1;
    };
  }, [overlayRef, seq, layout, info, store, probeId]);

  useEffect(() => {
    const ctx = overlayRef.current?.getContext('2d');
    const a = anim.current;
    // While animating, the next animation frame draws the hover anyway.
    // A new window (or a resized canvas, which clears it) needs the overlay again.
    if (ctx && layout && info && win && a && a.t >= 1)
      drawOverlay(ctx, layout, info.pagesPerBlock, a.hl, 1, hoverPpn, assoc, win.top);
  }, [overlayRef, hoverPpn, assoc, layout, info, win]);
  return shown;
}

/**
 * Log-block schemes pair log and data blocks: the block under the pointer shows its
 * partners, from the engine's RAM inspection (asked while a block is hovered).
 */
export function useHoverAssociation(info: SimInfo | undefined, hoverPpn: number | null) {
  const pairs = !!info?.spec.stops.includes('merge');
  const hoverBlock = hoverPpn !== null && info ? Math.floor(hoverPpn / info.pagesPerBlock) : null;
  const inspection = useInspection(pairs && hoverBlock !== null ? {} : null);
  const assoc = useMemo(
    () => (pairs && hoverBlock !== null ? associationOf(inspection, hoverBlock) : null),
    [pairs, hoverBlock, inspection],
  );
  return { pairs, assoc };
}

/**
 * What the hovered block does for its logical block (role, GC state), when the scheme says:
 * the `block` field of the one inspection question, so it follows the timeline like the rest.
 */
export function useHoverDuty(hoverBlock: number | null): BlockDuty | null {
  const answer = useInspection(hoverBlock !== null ? { block: hoverBlock, limit: 0 } : null);
  return answer?.block && answer.block.block === hoverBlock ? answer.block : null;
}

/** What the hovered page holds, from the worker's page table (asked again after each move). */
export function useHoverInfo(hoverPpn: number | null, seq: number) {
  const store = useStore();
  const [hoverInfo, setHoverInfo] = useState<{ ppn: number; info: PageInfo | null } | null>(null);
  useEffect(() => {
    if (hoverPpn === null) return;
    let live = true;
    void store.pageInfo(hoverPpn).then((i) => live && setHoverInfo({ ppn: hoverPpn, info: i }));
    return () => {
      live = false;
    };
  }, [hoverPpn, seq, store]);
  return hoverInfo?.ppn === hoverPpn ? hoverInfo.info : undefined;
}
