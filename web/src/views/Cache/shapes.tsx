/**
 * The generic shapes of a RAM inspection (engine/inspection.ts), drawn without knowing the
 * scheme: an ordered list (order, dirty bits, entries the current request touched), a table,
 * a tree and a set of ranges. Large structures arrive summarised; `len` says how many in all.
 */
import type { Entry, Structure, TreeNode } from '../../engine/inspection';

const n = (v: number) => v.toLocaleString('en-US');
const ORDER: Record<string, string> = { lru: 'most recently used first', lfu: 'most frequently used first', fifo: 'oldest last', level: 'by level' };

function More({ shown, len, truncated }: { shown: number; len: number; truncated: boolean }) {
  if (!truncated && shown >= len) return null;
  return <p className="cache__more">… and {n(len - shown)} more (first {n(shown)} shown, with every entry this request touched)</p>;
}

function EntryItem({ e }: { e: Entry }) {
  const cls = ['cache__entry', e.dirty ? 'is-dirty' : '', e.touched ? 'is-touched' : ''].join(' ').trim();
  const value = e.value === null ? '' : ` → ${n(e.value)}`;
  return (
    <li className={cls} data-key={e.key} title={`${e.dirty ? 'dirty (differs from flash)' : 'clean'}${e.touched ? ', touched by this request' : ''}${e.group !== undefined ? `, group ${e.group}` : ''}`}>
      <span className="cache__key">{n(e.key)}</span>
      <span className="cache__value">{value}</span>
      {e.dirty && <span className="cache__dirty" aria-label="dirty">●</span>}
    </li>
  );
}

function ListShape({ s }: { s: Extract<Structure, { shape: 'list' }> }) {
  return (
    <>
      <p className="cache__meta">
        {n(s.len)} of {n(s.capacity)} entries · {ORDER[s.order] ?? s.order}
      </p>
      <ol className="cache__list" aria-label={`${s.name} entries, ${ORDER[s.order] ?? s.order}`}>
        {s.entries.map((e) => (
          <EntryItem key={e.key} e={e} />
        ))}
      </ol>
      <More shown={s.entries.length} len={s.len} truncated={s.truncated} />
    </>
  );
}

function TableShape({ s }: { s: Extract<Structure, { shape: 'table' }> }) {
  return (
    <>
      <table className="cache__table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Where</th>
          </tr>
        </thead>
        <tbody>
          {s.rows.map((r) => (
            <tr key={r.key}>
              <td>{n(r.key)}</td>
              <td>{r.in_ram ? 'in RAM' : r.value === null ? 'not written yet' : `flash page ${n(r.value)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <More shown={s.rows.length} len={s.len} truncated={s.truncated} />
    </>
  );
}

function Node({ node }: { node: TreeNode }) {
  return (
    <li className={node.dirty ? 'is-dirty' : undefined}>
      <span className="cache__node">
        {node.label}
        {node.count !== undefined && <span className="cache__meta"> ({n(node.count)})</span>}
      </span>
      {node.children && node.children.length > 0 && (
        <ul>
          {node.children.map((c) => (
            <Node key={c.id} node={c} />
          ))}
        </ul>
      )}
    </li>
  );
}

function RangesShape({ s }: { s: Extract<Structure, { shape: 'ranges' }> }) {
  return (
    <>
      <ul className="cache__ranges">
        {s.ranges.map((r) => (
          <li key={r.id}>
            {n(r.min)}–{n(r.max)} → page {n(r.ppn)}
            {r.filter && <span className="cache__meta"> · filter {r.filter}</span>}
          </li>
        ))}
      </ul>
      <More shown={s.ranges.length} len={s.len} truncated={s.truncated} />
    </>
  );
}

/** One structure with its heading. */
export function StructureView({ s }: { s: Structure }) {
  return (
    <section className="cache__structure" data-testid={`cache-${s.id}`} aria-label={s.name}>
      <h4>{s.name}</h4>
      {s.shape === 'list' && <ListShape s={s} />}
      {s.shape === 'table' && <TableShape s={s} />}
      {s.shape === 'tree' && (
        <ul className="cache__tree">
          <Node node={s.root} />
        </ul>
      )}
      {s.shape === 'ranges' && <RangesShape s={s} />}
    </section>
  );
}

/** How the RAM budget is split now: one bar, one segment per budget. */
export function BudgetBar({ total, used, budgets }: { total: number; used: number; budgets: { name: string; bytes: number }[] }) {
  const scale = Math.max(total, used, 1);
  return (
    <figure className="cache__budget" aria-label={`RAM: ${n(used)} of ${n(total)} bytes used`}>
      <div className="cache__bar">
        {budgets.map((b, i) => (
          <span key={b.name} className={`cache__seg cache__seg--${i % 4}`} style={{ width: `${(100 * b.bytes) / scale}%` }} title={`${b.name}: ${n(b.bytes)} bytes`} />
        ))}
      </div>
      <figcaption>
        {budgets.map((b, i) => (
          <span key={b.name} className="cache__legend">
            <span className={`cache__swatch cache__seg--${i % 4}`} aria-hidden="true" />
            {b.name} {n(b.bytes)} B
          </span>
        ))}
        <span className="cache__legend">
          · {n(used)} of {n(total)} B used
        </span>
      </figcaption>
    </figure>
  );
}
