import { useEffect, useMemo, useRef, useState } from 'react';
import { useElementWidth } from '../../ui/useElementWidth';
import type { EngineEvent } from '../../engine/events';
import { hasTree, treeOps, treeOpWords } from '../../narration/treeOps';
import { useInspection } from '../../store/useInspection';
import { useShownRequest } from '../../store/useShownRequest';
import { useSim } from '../../store/useSim';
import { drawTree } from './draw';
import { RamSplitPanel } from './RamSplitPanel';
import { treeOf, treeView, type RowView } from './model';
import './Tree.css';

/** Transition of a redraw (ms) when paused or stepping. */
const ANIMATE_MS = 350;

/** One zoom level: the node zoomed into and the LRU rank of its first group. */
interface Zoom {
  id: string;
  label: string;
  start: number;
}

/** Node ids the request's cache hits name (`ctp-<t>`, `cdp-<lpn>`: the tree shape's ids for those levels). */
function hitIds(ops: EngineEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of ops) {
    if (e.type !== 'cache_hit') continue;
    if (e.level === 'translation_page') ids.add(`ctp-${e.key}`);
    if (e.level === 'data_page') ids.add(`cdp-${e.key}`);
  }
  return ids;
}

/**
 * The live tree of any scheme whose RAM inspection has a tree shape (TreeFTL's GTD → CTP →
 * CDP): groups in LRU order with their rank, dirty nodes marked, what the current request
 * loaded, inserted or pruned. It asks the engine for the tree where the timeline stands,
 * so stepping back redraws the tree as it was. Colder groups come in bands; clicking (or
 * Enter on) a band or a group zooms into it, the trail above zooms out.
 */
/** Groups shown one by one when the tree is on the stage (a 1280 × 720 stage shows about 22 rows; the rest scroll). */
const STAGE_ROWS = 48;

export function TreePanel() {
  const { current, op, playing } = useShownRequest();
  const info = useSim((s) => s.info);
  const [zoom, setZoom] = useState<Zoom[]>([]);
  const focus = zoom.at(-1);
  // On the stage the tree has room for more groups one by one (the side tab keeps the window).
  const staged = useSim((s) => s.stage.main === 'tree' || s.stage.side === 'tree');
  const inspection = useInspection({ ...(focus ? { focus: focus.id } : {}), ...(staged ? { rows: STAGE_ROWS } : {}) });
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef, 420, 260);
  const svgRef = useRef<SVGSVGElement>(null);
  /** The last draw was during play (the next one after a pause then jumps, as play did). */
  const drewPlaying = useRef(false);

  // A new experiment starts at the whole tree.
  useEffect(() => setZoom([]), [info]);

  const tree = treeOf(inspection?.structures);
  const ops = useMemo(() => {
    const events = current?.ops ?? [];
    return op > 0 ? events.slice(0, op) : events;
  }, [current, op]);
  // Part-way through a request the worker has replayed the tree to the op (engine/replay).
  const treeLevels = hasTree(info?.spec.caches.map((c) => c.level) ?? []);
  const view = useMemo(() => {
    if (!tree) return undefined;
    let root = tree.root;
    // A scheme that does not zoom on its side (its tree ignores the focus) still shows the node alone.
    if (focus && root.children?.some((c) => c.id === focus.id))
      root = { ...root, children: root.children.filter((c) => c.id === focus.id) };
    return treeView(root, focus?.start ?? 1, treeLevels ? treeOps(ops) : [], hitIds(ops), tree.order ?? 'none');
  }, [tree, treeLevels, focus, ops]);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !view) return;
    const into = (row: RowView) => {
      if (row.id === focus?.id) return;
      setZoom((z) => [
        ...z,
        {
          id: row.id,
          label: row.band
            ? `ranks ${row.rank.toLocaleString('en-US')}–${(row.rank + row.groups - 1).toLocaleString('en-US')}`
            : row.label.replace(/ \(.*$/, ''),
          start: row.rank,
        },
      ]);
    };
    const t0 = performance.now();
    // Animating from the last tree play drew to where the pause stands would show nothing
    // a step shows, and its 350 ms of transitions landed on the frames the pause already
    // made heavy (the narration's whole log; the 50 ms frame budget): steps animate.
    const animate = playing || drewPlaying.current ? 0 : ANIMATE_MS;
    drewPlaying.current = playing;
    drawTree(svg, view, { width, animate }, { zoom: into });
    // Named in the performance timeline, so scripts/measure-visualizer.mjs can observe the
    // draw's cost; cleared at once (observers still see it), so the buffer does not grow.
    performance.measure('tree-draw', { start: t0 });
    performance.clearMeasures('tree-draw');
  }, [view, width, playing, focus]);

  if (!inspection) return <p className="tree">No RAM inspection yet.</p>;
  if (!tree)
    return (
      <>
        <p className="tree" data-testid="tree-none">
          This scheme keeps no tree in RAM: its structures are on the RAM / cache tab.
        </p>
        <RamSplitPanel />
      </>
    );
  // Tree operations are read from the events of the CTP and CDP levels only.
  const said = treeLevels ? treeOps(ops).map(treeOpWords) : [];
  const emptyFocus = focus && view && view.rows.length === 0;
  return (
    <section className="tree" data-testid="tree-panel" aria-label={tree.name}>
      <nav className="tree__trail" aria-label="Zoom">
        <button type="button" onClick={() => setZoom([])} aria-current={zoom.length === 0 ? 'true' : undefined}>
          Whole tree
        </button>
        {zoom.map((z, i) => (
          <button
            key={z.id}
            type="button"
            onClick={() => setZoom(zoom.slice(0, i + 1))}
            aria-current={i === zoom.length - 1 ? 'true' : undefined}
          >
            › {z.label}
          </button>
        ))}
        {zoom.length > 0 && (
          <button type="button" className="tree__out" onClick={() => setZoom(zoom.slice(0, -1))}>
            Zoom out
          </button>
        )}
      </nav>
      {treeLevels && (
        <p className="tree__ops" data-testid="tree-ops" aria-live="off">
          {current ? `Request #${current.index.toLocaleString('en-US')}: ` : ''}
          {said.length > 0 ? said.join(' · ') : 'no change to the tree'}
        </p>
      )}
      {emptyFocus && <p className="tree__meta">{focus.label} is not in RAM at this position.</p>}
      <p className="tree__meta">
        {tree.order === 'level' ? 'By level, top first' : tree.order ? 'Most recent first' : 'In order'}; click or press
        Enter on a node or band to zoom in. Orange: dirty (differs from flash).
      </p>
      <div ref={wrapRef} className="tree__wrap">
        <svg ref={svgRef} data-testid="tree-svg" role="group" aria-label={`${tree.name}, most recent first`} />
      </div>
      <RamSplitPanel />
    </section>
  );
}
