import { useMemo, useRef, useState } from 'react';
import { prefillNote } from '../../narration/context';
import { useSim } from '../../store/useSim';
import { MAIN_GRID } from './drawProbe';
import { describeDuty, describePage } from './hoverText';
import { LABEL_MIN_CELL } from './labels';
import { GridOverview } from './GridOverview';
import { gridWindow, hitTest } from './layout';
import { scrollTopFor } from './overview';
import { Legend } from './Legend';
import { blockMarks } from './association';
import {
  useGridBox,
  useGridPaint,
  useHoverAssociation,
  useHoverDuty,
  useHoverInfo,
  useOverlayAnimation,
  useStableLayout,
} from './useGrid';
import './BlockGrid.css';

/**
 * Every page of every block, coloured by state and block role (or erase-count heat), with
 * the GC victim outlined and GC copies animated on a second canvas above the pages.
 * `probeId` names this grid's test probe (several grids must not share one).
 */
export function BlockGrid({ probeId = MAIN_GRID }: { probeId?: string } = {}) {
  const info = useSim((s) => s.info);
  const frame = useSim((s) => s.frame);
  const heat = useSim((s) => s.heat);
  const seq = useSim((s) => s.seq);
  const boxRef = useRef<HTMLDivElement>(null);
  const stackRef = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const { box, scroll, measureScroll } = useGridBox(boxRef, stackRef);
  const [hover, setHover] = useState<{ ppn: number; pinned: boolean } | null>(null);
  const hoverPpn = hover?.ppn ?? null;
  const { pairs, assoc } = useHoverAssociation(info, hoverPpn);
  const hoverInfo = useHoverInfo(hoverPpn, seq);
  const hoverBlock = hoverPpn !== null && info ? Math.floor(hoverPpn / info.pagesPerBlock) : null;
  const hoverDuty = useHoverDuty(hoverBlock);
  const midRequest = useSim((s) => s.pos.op > 0);

  const layout = useStableLayout(info, box);
  const labels = !!layout && layout.cell >= LABEL_MIN_CELL;
  // Until the box is measured, its last known size (never the whole of a tall grid).
  const viewH = scroll.h || box.h;
  const win = useMemo(() => (layout ? gridWindow(layout, scroll.y, viewH) : null), [layout, scroll.y, viewH]);
  // A grid taller than its box scrolls: the overview beside it shows the whole device.
  const overview = !!layout && layout.height > viewH + 8;

  useGridPaint(pagesRef, { layout, frame, info, heat, labels, probeId, win });
  const shown = useOverlayAnimation(overlayRef, { seq, layout, info, probeId, win, hoverPpn, assoc });
  const marks = useMemo(() => blockMarks(shown, assoc), [shown, assoc]);

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
    const moves: Record<string, number> = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -info.pagesPerBlock,
      ArrowDown: info.pagesPerBlock,
    };
    if (e.key === 'Escape') return setHover(null);
    const d = moves[e.key];
    if (d === undefined || e.shiftKey) return;
    e.preventDefault();
    const from = hover?.ppn ?? 0;
    setHover({ ppn: Math.max(0, Math.min(pages - 1, from + d)), pinned: true });
  };

  const text =
    hover && frame && info
      ? describePage(frame, info.pagesPerBlock, hover.ppn, hoverInfo) +
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
                aria-label={
                  info
                    ? `Block grid: ${info.blocks} blocks of ${info.pagesPerBlock} pages${heat ? ', coloured by erase count' : ''}. Arrow keys move a page cursor: left and right one page, up and down one block.`
                    : 'block grid'
                }
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
              <canvas
                ref={overlayRef}
                className="block-grid__overlay"
                width={layout.width}
                height={win.height}
                style={{ top: win.top }}
                aria-hidden="true"
              />
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
