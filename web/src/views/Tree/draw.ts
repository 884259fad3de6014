/**
 * Draws the tree (model.ts) into an SVG as an indented D3 hierarchy: the root at the top,
 * its children below it in LRU order (rank at the left, most recent first), each node's
 * leaves as small squares under its label, bands of colder groups as stacked cards, and
 * the groups the current request pruned as dashed ghosts at the bottom. Pure apart from the
 * DOM it is handed (SVG goldens under jsdom, draw.test.ts). Elements are joined by node id,
 * so with `animate` a loaded CTP or an inserted CDP fades in where it lands, rows slide to
 * their new rank and a pruned group fades out.
 */
import {
  hierarchy,
  interrupt,
  select,
  type BaseType,
  type EnterElement,
  type HierarchyNode,
  type Selection,
  type Transition,
} from 'd3';

/** One transition the whole redraw shares (rows, leaves and ghosts move together). */
type Tr = Transition<BaseType, unknown, null, undefined> | null;
import type { LeafView, RowView, TreeView } from './model';

/** Geometry (px). */
export const G = {
  rootY: 12,
  rowGap: 6,
  head: 16,
  leaf: 8,
  leafGap: 2,
  gutter: 50,
  rootX: 60,
  nodeX: 76,
  textX: 86,
  endLine: 12,
  charPx: 6.2,
} as const;

/**
 * From this width on (the tree on the stage) a row's leaves stand beside its label instead of
 * under it, so a row takes one line and a 720-pixel-high screen shows twenty of them.
 */
export const INLINE_FROM = 560;
/** Width of the label column when leaves stand beside it. */
const LABEL_W = 230;
/** Gap between rows when leaves stand beside the labels. */
const INLINE_GAP = 4;

/** `text` made to fit about `px` (SVG text does not wrap; the row's tooltip has it whole). */
export function fit(text: string, px: number): string {
  const max = Math.max(8, Math.floor(px / G.charPx));
  if (text.length <= max) return text;
  // First drop asides in parentheses ("(LRU ranks 5–1238)": the gutter shows the rank).
  const plain = text.replace(/ \([^)]*\)/g, '');
  return plain.length <= max ? plain : `${plain.slice(0, max - 1)}…`;
}

/** What the drawing does on input. */
export interface TreeHandlers {
  /** A row was chosen (click, Enter or Space): zoom into it. */
  zoom(row: RowView): void;
}

/** Options of one draw. */
export interface DrawOptions {
  width: number;
  /** Transition (ms) for rows, leaves and ghosts; 0 sets the final state at once. */
  animate: number;
}

type Datum = { kind: 'root'; view: TreeView } | { kind: 'row'; row: RowView } | { kind: 'leaf'; leaf: LeafView };
type Placed = { row: RowView; y: number; height: number; leavesPerLine: number; leafX: number; leafY: number };

const WHOLE = new Intl.NumberFormat('en-US');
const n = (v: number) => WHOLE.format(v);
const leafClass = (l: LeafView) => `leaf${l.dirty ? ' is-dirty' : ''}${l.change ? ` is-${l.change}` : ''}`;
const rowClass = (r: RowView) =>
  `row row--${r.band ? 'band' : r.kind}${r.dirty ? ' is-dirty' : ''}${r.change ? ` is-${r.change}` : ''}`;

/** Rows placed top to bottom: each row's head line, then its leaves in lines. */
export function placeRows(view: TreeView, width: number): { placed: Placed[]; height: number } {
  // The hierarchy (root → rows → leaves) is walked in order; each row takes the lines it needs.
  const root: HierarchyNode<Datum> = hierarchy<Datum>({ kind: 'root', view }, (d) =>
    d.kind === 'root'
      ? d.view.rows.map((row) => ({ kind: 'row', row }))
      : d.kind === 'row'
        ? d.row.leaves.map((leaf) => ({ kind: 'leaf', leaf }))
        : undefined,
  );
  const inline = width >= INLINE_FROM;
  const leafX = inline ? G.textX + LABEL_W : G.textX;
  const leafY = inline ? 4 : G.head;
  const gap = inline ? INLINE_GAP : G.rowGap;
  const perLine = Math.max(1, Math.floor((width - leafX - 40) / (G.leaf + G.leafGap)));
  let y = G.rootY + G.head + G.rowGap;
  const placed: Placed[] = [];
  for (const c of root.children ?? []) {
    if (c.data.kind !== 'row') continue;
    const row = c.data.row;
    const lines = Math.ceil((c.children?.length ?? 0) / perLine);
    const height = Math.max(G.head, leafY + lines * (G.leaf + G.leafGap));
    placed.push({ row, y, height, leavesPerLine: perLine, leafX, leafY });
    y += height + gap;
  }
  return { placed, height: y + G.endLine + view.pruned.length * (G.head + G.rowGap) + 4 };
}

type Sel<E extends BaseType, D> = Selection<E, D, SVGGElement | SVGSVGElement, unknown>;

/** The child `tag.cls` of `root`, appended if missing. */
function part(root: Selection<SVGSVGElement, unknown, null, undefined>, tag: string, cls: string) {
  const found = root.select<SVGGElement>(`${tag}.${cls}`);
  return found.empty() ? root.append<SVGGElement>(tag).attr('class', cls) : found;
}

function rowTitle(r: RowView): string {
  const said = (l: LeafView) => `${l.label}${l.change ? ` (${l.change} now)` : ''}`;
  const leaves =
    r.leaves.length > 0
      ? `: ${r.leaves.map(said).join(', ')}${moreText(r) ? ` and ${n(r.leafCount - r.leaves.length)} more` : ''}`
      : '';
  return `${r.label}${r.dirty ? ', dirty' : ''}${leaves}`;
}

function moreText(r: RowView): string {
  const hidden = r.leafCount - r.leaves.length;
  return hidden > 0 ? `+${n(hidden)}` : '';
}

function drawLeaves(rows: Sel<SVGGElement, Placed>, tr: Tr) {
  rows.each(function (p) {
    const g = select(this).select<SVGGElement>('g.leaves');
    const leaves = g
      .selectAll<SVGRectElement, LeafView>('rect.leaf')
      .data(p.row.leaves, (d) => d.id)
      .join(
        (enter) =>
          enter
            .append('rect')
            .attr('opacity', tr ? 0 : 1)
            .attr('width', G.leaf)
            .attr('height', G.leaf),
        (update) => update,
        (exit) => (tr ? exit.classed('is-exiting', true).transition(tr).attr('opacity', 0).remove() : exit.remove()),
      )
      .attr('class', leafClass)
      .attr('data-id', (d) => d.id)
      .attr('x', (_, i) => p.leafX + (i % p.leavesPerLine) * (G.leaf + G.leafGap))
      .attr('y', (_, i) => p.leafY + Math.floor(i / p.leavesPerLine) * (G.leaf + G.leafGap));
    if (tr) leaves.transition(tr).attr('opacity', 1);
    else
      leaves
        .filter(function () {
          return this.getAttribute('opacity') !== '1';
        })
        .attr('opacity', 1);
    const lines = Math.ceil(p.row.leaves.length / p.leavesPerLine);
    g.selectAll('text.more')
      .data(moreText(p.row) ? [moreText(p.row)] : [])
      .join('text')
      .attr('class', 'more')
      .attr('x', p.leafX + Math.min(p.row.leaves.length, p.leavesPerLine) * (G.leaf + G.leafGap) + 4)
      .attr('y', p.leafY + (lines - 1) * (G.leaf + G.leafGap) + G.leaf)
      .text((d) => d);
  });
}

function enterRow(enter: Selection<EnterElement, Placed, SVGGElement, unknown>, on: TreeHandlers) {
  const g = enter
    .append('g')
    .attr('tabindex', 0)
    .attr('role', 'button')
    .on('click', (_, p) => on.zoom(p.row))
    .on('keydown', (ev: KeyboardEvent, p) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      ev.stopPropagation(); // Space here zooms; it must not reach the page's play key
      on.zoom(p.row);
    });
  g.append('title');
  g.append('text')
    .attr('class', 'rank')
    .attr('x', G.gutter - 4)
    .attr('y', 12)
    .attr('text-anchor', 'end');
  g.append('rect')
    .attr('class', 'card card--back')
    .attr('x', G.nodeX - 3)
    .attr('y', 0)
    .attr('width', 10)
    .attr('height', 10);
  g.append('circle').attr('class', 'node').attr('cx', G.nodeX).attr('cy', 8).attr('r', 5);
  g.append('text').attr('class', 'label').attr('x', G.textX).attr('y', 12);
  g.append('g').attr('class', 'leaves');
  return g;
}

/** Draws (or redraws) `view`; returns the drawing's height. */
export function drawTree(svg: SVGSVGElement, view: TreeView, opts: DrawOptions, on: TreeHandlers): number {
  const root = select(svg);
  const { placed, height } = placeRows(view, opts.width);
  const t = opts.animate;
  // On the SVG, so its elements inherit its timing; named, so a redraw interrupts the last one.
  const tr: Tr = t ? (root.transition('tree').duration(t) as unknown as Tr) : null;
  // Without one, the last redraw's transitions must not finish over this one's positions.
  // (Using `interrupt` also keeps d3-transition, which adds `selection.transition`, in the
  // bundle: d3 is marked side-effect free.)
  // Elements still fading out go at once.
  if (!tr) {
    root.selectAll('g.row, rect.leaf, g.ghost').each(function () {
      interrupt(this as Element, 'tree');
    });
    root.selectAll('.is-exiting').remove();
  }
  root.attr('width', opts.width).attr('height', height).attr('viewBox', `0 0 ${opts.width} ${height}`);

  const links = part(root, 'g', 'links');
  links
    .selectAll<SVGPathElement, Placed>('path.link')
    .data(placed, (p) => p.row.id)
    .join((e) => e.append('path').attr('class', 'link'))
    .attr('d', (p) => `M${G.rootX},${G.rootY + 5}V${p.y + 8}H${G.nodeX - 5}`);

  const top = part(root, 'g', 'root');
  top
    .selectAll('circle')
    .data([view.id])
    .join('circle')
    .attr('class', 'node node--root')
    .attr('cx', G.rootX)
    .attr('cy', G.rootY)
    .attr('r', 6);
  top
    .selectAll('text')
    .data([view.rootLabel])
    .join('text')
    .attr('class', 'label label--root')
    .attr('x', G.rootX + 12)
    .attr('y', G.rootY + 4)
    .text(fit(`${view.rootLabel} · ${n(view.total)} under it`, opts.width - G.rootX - 12));

  const rowsG = part(root, 'g', 'rows');
  const rows = rowsG
    .selectAll<SVGGElement, Placed>('g.row')
    .data(placed, (p) => p.row.id)
    .join(
      (enter) =>
        enterRow(enter, on)
          .attr('opacity', t ? 0 : 1)
          .attr('transform', (p) => `translate(0,${p.y})`),
      (update) => update,
      (exit) => (tr ? exit.classed('is-exiting', true).transition(tr).attr('opacity', 0).remove() : exit.remove()),
    )
    .attr('class', (p) => rowClass(p.row))
    .attr('data-id', (p) => p.row.id)
    .attr('aria-label', (p) => `${p.row.label}${p.row.dirty ? ', dirty' : ''}: zoom in`);
  // One tooltip per row names its leaves (a title per leaf cost more than the rest of a redraw).
  rows.select('title').text((p) => rowTitle(p.row));
  rows
    .select('text.rank')
    .text((p) => (p.row.rank === 0 ? '' : p.row.band ? `#${n(p.row.rank)}+` : `#${n(p.row.rank)}`));
  rows
    .select('text.label')
    .text((p) =>
      fit(
        p.row.label + (p.row.change ? ` · ${p.row.change} now` : ''),
        (p.row.leaves.length > 0 && p.leafX > G.textX ? p.leafX - 8 : opts.width) - G.textX,
      ),
    );
  rows.select('rect.card--back').attr('display', (p) => (p.row.band ? null : 'none'));
  rows.select('circle.node').attr('r', (p) => (p.row.band ? 6 : 5));
  if (tr)
    rows
      .transition(tr)
      .attr('opacity', 1)
      .attr('transform', (p) => `translate(0,${p.y})`);
  else rows.attr('opacity', 1).attr('transform', (p) => `translate(0,${p.y})`);
  drawLeaves(rows, tr);

  const last = placed.at(-1);
  const end = part(root, 'g', 'lru-end');
  end
    .selectAll('text')
    .data(view.reachesEnd && last ? [last] : [])
    .join('text')
    .attr('class', 'lru-end')
    .attr('x', G.textX)
    .attr('y', (p) => p.y + p.height + 9)
    .text('▴ least recently used: the next victim');

  const ghostY = (placed.at(-1)?.y ?? G.rootY + G.head) + (placed.at(-1)?.height ?? 0) + G.rowGap + G.endLine;
  const ghosts = part(root, 'g', 'ghosts');
  const gs = ghosts
    .selectAll<SVGGElement, (typeof view.pruned)[number]>('g.ghost')
    .data(view.pruned, (d) => d.id)
    .join((e) =>
      e
        .append('g')
        .attr('class', 'ghost')
        .call((g) => g.append('circle').attr('class', 'node').attr('cx', G.nodeX).attr('cy', 8).attr('r', 5))
        .call((g) => g.append('text').attr('class', 'label').attr('x', G.textX).attr('y', 12)),
    )
    .attr('data-id', (d) => d.id)
    .attr('transform', (_, i) => `translate(0,${ghostY + i * (G.head + G.rowGap)})`);
  gs.select('text.label').text((d) => fit(d.label, opts.width - G.textX));
  if (tr)
    gs.attr('opacity', 1)
      .transition(tr)
      .delay(t)
      .duration(t * 2)
      .attr('opacity', 0.45);
  else gs.attr('opacity', 0.45);
  return height;
}
