/**
 * The generic shapes of a RAM inspection (engine/inspection.ts), drawn without knowing the
 * scheme: an ordered list (order, dirty bits, entries the current request touched), a table,
 * a tree and a set of ranges. Large structures arrive summarised; `len` says how many in all.
 * The item the current path step concerns (path.ts) carries `data-step` and is outlined.
 */
import type { Entry, Structure, TreeNode } from '../../engine/inspection';
import { Terms } from '../../ui/Terms';
import { groupStarts } from './groups';
import type { Highlight } from './path';

const n = (v: number) => v.toLocaleString('en-US');
const ORDER: Record<string, [string, string, string]> = {
  lru: ['most recently used first', 'MRU', 'LRU (next victim)'],
  lfu: ['most frequently used first', 'most used', 'least used (next victim)'],
  fifo: ['newest first', 'newest', 'oldest (next out)'],
  level: ['by level', 'top', 'bottom'],
};
const STEP_WORDS: Record<Highlight['kind'], string> = {
  hit: 'hit',
  miss: 'miss',
  'tp-read': 'read from flash',
  insert: 'inserted',
  evict: 'evicted',
  'tp-write': 'written',
};

function More({ shown, len, truncated }: { shown: number; len: number; truncated: boolean }) {
  if (!truncated && shown >= len) return null;
  return (
    <p className="cache__more">
      … and {n(len - shown)} more (first {n(shown)} shown, with every entry this request touched)
    </p>
  );
}

function EntryItem({ e, hl }: { e: Entry; hl?: Highlight }) {
  const step = hl?.key === e.key ? hl.kind : undefined;
  const cls = [
    'cache__entry',
    e.dirty ? 'is-dirty' : '',
    e.touched ? 'is-touched' : '',
    step ? `is-step is-step--${step}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const value = e.value === null ? '' : ` → ${n(e.value)}`;
  const title = `${e.dirty ? 'dirty (differs from flash)' : 'clean'}${e.touched ? ', touched by this request' : ''}${e.group !== undefined ? `, group ${e.group}` : ''}${step ? `, ${STEP_WORDS[step]} now` : ''}`;
  return (
    <li className={cls} data-key={e.key} data-step={step} title={title}>
      <span className="cache__key">{n(e.key)}</span>
      <span className="cache__value">{value}</span>
      {e.dirty && (
        <span className="cache__dirty" aria-label="dirty">
          ●
        </span>
      )}
    </li>
  );
}

/** An item the step names that the structure does not hold (a miss, an evicted entry). */
function Absent({ hl, what }: { hl: Highlight; what: string }) {
  return (
    <li className={`cache__entry is-absent is-step is-step--${hl.kind}`} data-missing-key={hl.key} data-step={hl.kind}>
      <span className="cache__key">{n(hl.key ?? 0)}</span> {what}
      {hl.dirty && (
        <span className="cache__dirty" aria-label="dirty">
          ●
        </span>
      )}
    </li>
  );
}

function ListShape({ s, hl }: { s: Extract<Structure, { shape: 'list' }>; hl?: Highlight }) {
  const [order, first, last] = ORDER[s.order] ?? [s.order, 'first', 'last'];
  const held = hl?.key !== undefined && s.entries.some((e) => e.key === hl.key);
  // Entries past the summary's first N are the touched ones the engine added: mark the gap.
  let lastPlain = -1;
  s.entries.forEach((e, i) => !e.touched && (lastPlain = i));
  const gapAt = s.truncated && lastPlain >= 0 && lastPlain < s.entries.length - 1 ? lastPlain + 1 : -1;
  const fill = s.capacity > 0 ? Math.min(1, s.len / s.capacity) : 0;
  // Schemes insert before they evict within a request, so a replayed list can hold one entry
  // more than its capacity between the two: the count stays bounded, the extra is named.
  const over = s.capacity > 0 ? Math.max(0, s.len - s.capacity) : 0;
  const starts = new Set(groupStarts(s.entries));
  return (
    <>
      <p className="cache__meta">
        {n(s.len - over)} of {n(s.capacity)} entries{over > 0 && ` (${n(over)} more until the eviction that follows)`} ·{' '}
        {order}
        <span className="cache__fill" aria-hidden="true">
          <span style={{ width: `${100 * fill}%` }} />
        </span>
      </p>
      <ol className="cache__list" aria-label={`${s.name} entries, ${order}`}>
        {hl?.kind === 'miss' && !held && <Absent hl={hl} what="not here: miss" />}
        {s.entries.length > 0 && (
          <li className="cache__end" aria-hidden="true">
            {first} ▸
          </li>
        )}
        {s.entries.map((e, i) => (
          <FragmentEntry key={e.key} e={e} hl={hl} gap={i === gapAt} group={starts.has(i) ? e.group : undefined} />
        ))}
        {s.entries.length > 0 && (
          <li className="cache__end" aria-hidden="true">
            ◂ {last}
          </li>
        )}
        {hl?.kind === 'evict' && !held && <Absent hl={hl} what="evicted" />}
      </ol>
      <More shown={s.entries.length} len={s.len} truncated={s.truncated} />
    </>
  );
}

function FragmentEntry({ e, hl, gap, group }: { e: Entry; hl?: Highlight; gap: boolean; group?: number }) {
  return (
    <>
      {gap && (
        <li className="cache__gap" aria-label="entries left out">
          …
        </li>
      )}
      {group !== undefined && <li className="cache__group">group {n(group)}:</li>}
      <EntryItem e={e} hl={hl} />
    </>
  );
}

function where(r: { value: number | null; in_ram: boolean }) {
  return r.in_ram ? 'in RAM' : r.value === null ? 'not written yet' : `flash page ${n(r.value)}`;
}

function TableShape({ s, hl }: { s: Extract<Structure, { shape: 'table' }>; hl?: Highlight }) {
  const held = hl?.key !== undefined && s.rows.some((r) => r.key === hl.key);
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
          {s.rows.map((r) => {
            const step = hl?.key === r.key ? hl.kind : undefined;
            return (
              <tr
                key={r.key}
                data-key={r.key}
                data-step={step}
                className={step ? `is-step is-step--${step}` : undefined}
              >
                <td>{n(r.key)}</td>
                <td>
                  {where(r)}
                  {step && <span className="cache__stepword"> ← {STEP_WORDS[step]}</span>}
                </td>
              </tr>
            );
          })}
          {hl?.key !== undefined && !held && (
            <tr data-key={hl.key} data-step={hl.kind} className={`is-step is-step--${hl.kind}`}>
              <td>{n(hl.key)}</td>
              <td>
                (not in the summary) <span className="cache__stepword">← {STEP_WORDS[hl.kind]}</span>
              </td>
            </tr>
          )}
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
        {node.dirty && (
          <span className="cache__dirty" aria-label="dirty">
            {' '}
            ●
          </span>
        )}
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

function RangesShape({ s, hl }: { s: Extract<Structure, { shape: 'ranges' }>; hl?: Highlight }) {
  return (
    <>
      <p className="cache__meta">{n(s.len)} in all</p>
      <ul className="cache__ranges">
        {hl?.ppn !== undefined && !s.ranges.some((r) => r.ppn === hl.ppn) && (
          <li data-pending-ppn={hl.ppn} data-step={hl.kind} className={`is-absent is-step is-step--${hl.kind}`}>
            new → flash page {n(hl.ppn)} <span className="cache__stepword">← {STEP_WORDS[hl.kind]}</span>
            <span className="cache__meta"> (newest; its keys appear when the request ends)</span>
          </li>
        )}
        {s.ranges.map((r) => {
          const step = hl?.ppn === r.ppn ? hl.kind : undefined;
          return (
            <li
              key={r.id}
              data-id={r.id}
              data-ppn={r.ppn}
              data-step={step}
              className={step ? `is-step is-step--${step}` : undefined}
            >
              keys {n(r.min)}–{n(r.max)} → flash page {n(r.ppn)}
              {r.filter && <span className="cache__meta"> · filter {r.filter}</span>}
              {step && <span className="cache__stepword"> ← {STEP_WORDS[step]}</span>}
            </li>
          );
        })}
      </ul>
      <More shown={s.ranges.length} len={s.len} truncated={s.truncated} />
    </>
  );
}

/** One structure with its heading; `hl` is what the current path step does in it. */
export function StructureView({ s, hl }: { s: Structure; hl?: Highlight }) {
  return (
    <section className={`cache__structure${hl ? ' is-on-path' : ''}`} data-testid={`cache-${s.id}`} aria-label={s.name}>
      <h4>
        <Terms text={s.name} />
        {hl && <span className="cache__stepword"> · {STEP_WORDS[hl.kind]}</span>}
      </h4>
      {s.shape === 'list' && <ListShape s={s} hl={hl} />}
      {s.shape === 'table' && <TableShape s={s} hl={hl} />}
      {s.shape === 'tree' && (
        <ul className="cache__tree">
          <Node node={s.root} />
        </ul>
      )}
      {s.shape === 'ranges' && <RangesShape s={s} hl={hl} />}
    </section>
  );
}
