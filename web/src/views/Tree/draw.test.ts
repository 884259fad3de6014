// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../engine/inspection';
import { svgGoldenMismatch } from '../../test/svgGolden';
import { drawTree, fit, G, INLINE_FROM, placeRows } from './draw';
import { treeView, type RowView } from './model';

const cdp = (lpn: number, dirty = true): TreeNode => ({
  id: `cdp-${lpn}`,
  label: `LPN ${lpn} (v1)`,
  kind: 'cdp',
  dirty,
});
const ctp = (t: number, lpns: number[], dirty = true): TreeNode => ({
  id: `ctp-${t}`,
  label: `CTP ${t} (${lpns.length} CDPs)`,
  kind: 'ctp',
  dirty,
  count: lpns.length,
  children: lpns.map((l) => cdp(l)),
});

/** Four groups (one with 30 CDPs, more than a line holds at this width), then a band. */
function tree(groups: TreeNode[]): TreeNode {
  return {
    id: 'gtd',
    label: 'GTD (64 translation pages)',
    kind: 'gtd',
    count: groups.length + 1234,
    children: [
      ...groups,
      {
        id: 'cold-4-1238',
        label: '1,234 colder groups (LRU ranks 5–1238), 20,345 CDPs',
        kind: 'cold',
        dirty: true,
        count: 1234,
      },
    ],
  };
}
const GROUPS = [
  ctp(3, [24, 25]),
  ctp(1, []),
  ctp(
    7,
    Array.from({ length: 30 }, (_, i) => 448 + i),
  ),
  ctp(0, [2], false),
];

function svg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}
const OPTS = { width: 300, animate: 0 };

describe('drawTree', () => {
  it('draws the root, ranked groups with dirty CDPs, a band and a pruned ghost (golden)', () => {
    const el = svg();
    const v = treeView(tree(GROUPS), 1, [
      { op: 'cdp-insert', lpn: 25, readIn: true, first: 0, last: 1, ns: 0 },
      { op: 'prune', t: 9, cdps: [72, 73], ctpLeft: true, ctpWritten: true, first: 2, last: 6, ns: 0 },
    ]);
    drawTree(el, v, OPTS, { zoom: () => {} });
    expect(svgGoldenMismatch(el, 'tree', import.meta.url)).toBeNull();
  });

  it('joins by node id: a redraw moves rows, adds the new group and drops the pruned one', () => {
    const el = svg();
    drawTree(el, treeView(tree(GROUPS), 1, []), OPTS, { zoom: () => {} });
    const before = el.querySelector('g.row[data-id="ctp-7"]');
    drawTree(
      el,
      treeView(tree([ctp(12, []), ...GROUPS.slice(0, 3)]), 1, [{ op: 'ctp-load', t: 12, first: 0, last: 2, ns: 0 }]),
      OPTS,
      { zoom: () => {} },
    );
    expect(el.querySelector('g.row[data-id="ctp-7"]')).toBe(before); // the same element, moved
    expect(el.querySelector('g.row[data-id="ctp-0"]')).toBeNull();
    expect(el.querySelector('g.row[data-id="ctp-12"]')!.getAttribute('class')).toContain('is-loaded');
    expect([...el.querySelectorAll('g.row')].map((g) => g.querySelector('text.rank')!.textContent)).toEqual([
      '#1',
      '#2',
      '#3',
      '#4',
      '#5+',
    ]);
  });

  it('zooms on click and on Enter, and keeps Space from reaching the page', () => {
    const el = svg();
    document.body.append(el);
    const zoomed: RowView[] = [];
    drawTree(el, treeView(tree(GROUPS), 1, []), OPTS, { zoom: (r) => zoomed.push(r) });
    const band = el.querySelector('g.row[data-id="cold-4-1238"]')!;
    band.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    let reached = false;
    document.addEventListener('keydown', () => (reached = true), { once: true });
    el.querySelector('g.row[data-id="ctp-3"]')!.dispatchEvent(
      new KeyboardEvent('keydown', { key: ' ', bubbles: true }),
    );
    expect(zoomed.map((r) => [r.id, r.rank])).toEqual([
      ['cold-4-1238', 5],
      ['ctp-3', 1],
    ]);
    expect(reached).toBe(false);
    el.remove();
  });

  it('animated, a new row starts transparent and fades in (d3 transitions, not a jump)', () => {
    const el = svg();
    drawTree(el, treeView(tree(GROUPS), 1, []), { width: 300, animate: 200 }, { zoom: () => {} });
    expect(el.querySelector('g.row[data-id="ctp-3"]')!.getAttribute('opacity')).toBe('0');
  });

  it('fits long labels: asides in parentheses go first, then an ellipsis', () => {
    expect(fit('1,234 colder groups (LRU ranks 5–1238), 20,345 CDPs', 200)).toBe('1,234 colder groups, 20,345 CDPs');
    expect(fit('CTP 7 (LPN 448–511, 30 CDPs)', 400)).toBe('CTP 7 (LPN 448–511, 30 CDPs)');
    expect(fit('CTP 9 pruned, 2 CDPs flushed, written back', 100)).toBe('CTP 9 pruned, 2…');
  });

  it('from the stage width on, a row keeps its leaves beside its label, one line per row', () => {
    const v = treeView(tree(GROUPS), 1, []);
    const narrow = placeRows(v, 300).placed;
    const wide = placeRows(v, INLINE_FROM + 300).placed;
    // Narrow: the 30-CDP group's leaves wrap under its label; wide: beside it, in one line.
    expect(narrow[2].height).toBeGreaterThan(G.head + G.leaf);
    expect(wide.map((p) => p.height)).toEqual(wide.map(() => G.head));
    expect(wide[2].leafX).toBeGreaterThan(G.textX + 100);
    expect(placeRows(v, INLINE_FROM + 300).height).toBeLessThan(placeRows(v, 300).height);
    const el = svg();
    drawTree(el, v, { width: INLINE_FROM + 300, animate: 0 }, { zoom: () => {} });
    const leaf = el.querySelector('g.row[data-id="ctp-7"] rect.leaf')!;
    expect(Number(leaf.getAttribute('x'))).toBe(wide[2].leafX);
    expect(Number(leaf.getAttribute('y'))).toBeLessThan(G.head);
  });
});
