import { useEffect, useMemo, useRef } from 'react';
import { useSim } from '../../store/useSim';
import { useThrottled } from '../../ui/useThrottled';
import type { GridLayout, GridWindow } from './layout';
import {
  blocksInView,
  OVERVIEW_WIDTH,
  overviewBlockAt,
  overviewMap,
  overviewPixelOf,
  overviewPixels,
} from './overview';
import { OP_MARK } from './palette';

/** Room under the picture for its caption (px). */
const CAPTION_PX = 36;

/**
 * The whole device beside a grid too tall for its box (overview.ts): the blocks in view
 * outlined and named, a click scrolls the grid to the block under it. Repainted at most
 * once a second while playing (it reads every page).
 */
export function GridOverview({
  layout,
  win,
  height,
  onJump,
}: {
  layout: GridLayout;
  win: GridWindow;
  height: number;
  onJump: (block: number) => void;
}) {
  const info = useSim((s) => s.info);
  const frame = useSim((s) => s.frame);
  const seq = useSim((s) => s.seq);
  const playing = useSim((s) => s.status === 'playing');
  const shownSeq = useThrottled(seq, 1000, playing);
  const ref = useRef<HTMLCanvasElement>(null);
  const blocks = info?.blocks ?? 0;
  const map = useMemo(() => overviewMap(blocks, OVERVIEW_WIDTH, Math.max(16, height - CAPTION_PX)), [blocks, height]);
  const view = blocksInView(layout, blocks, win);
  const pixels = useMemo(
    () => (frame && info ? overviewPixels(map, frame, info.pagesPerBlock) : null),
    // The frame's arrays are updated in place: the throttled sequence number says when to look again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [map, info, shownSeq],
  );

  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx || !pixels) return;
    ctx.putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer as ArrayBuffer), map.width, map.height), 0, 0);
    const y0 = Math.floor(overviewPixelOf(map, view.first) / map.width);
    const y1 = Math.floor(overviewPixelOf(map, view.last) / map.width);
    ctx.strokeStyle = OP_MARK;
    ctx.lineWidth = 2;
    ctx.strokeRect(1, y0, map.width - 2, y1 - y0 + 1);
  }, [pixels, map, view.first, view.last]);

  const n = (x: number) => x.toLocaleString('en-US');
  const caption = `Blocks ${n(view.first)}–${n(view.last)} of ${n(blocks)} in view`;
  return (
    <figure className="block-grid__overview" data-testid="grid-overview">
      <canvas
        ref={ref}
        width={map.width}
        height={map.height}
        role="img"
        aria-label={`Overview of all ${n(blocks)} blocks; ${caption.toLowerCase()}. Click to scroll the grid there.`}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          const block = overviewBlockAt(
            map,
            ((e.clientX - r.left) * map.width) / r.width,
            ((e.clientY - r.top) * map.height) / r.height,
          );
          if (block !== null) onJump(block);
        }}
      />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
