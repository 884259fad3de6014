import { budgetSegments, type Segment } from './budgets';

const n = (v: number) => v.toLocaleString('en-US');
const cls = (s: Segment) => `cache__seg cache__seg--${s.colour ?? 'none'}${s.free ? ' is-free' : ''}`;

/** How the RAM budget is split now: one bar, one segment per budget, scaled to the budget. */
export function BudgetBar({
  total,
  used,
  budgets,
}: {
  total: number;
  used: number;
  budgets: { name: string; bytes: number }[];
}) {
  const scale = Math.max(total, used, 1);
  const over = used > total && total > 0;
  const segs = budgetSegments(budgets);
  return (
    <figure className="cache__budget" aria-label={`RAM: ${n(used)} of ${n(total)} bytes used`}>
      <div className="cache__bar">
        {segs.map((s) => (
          <span
            key={s.name}
            className={cls(s)}
            style={{ width: `${(100 * s.bytes) / scale}%` }}
            title={`${s.name}: ${n(s.bytes)} bytes`}
          />
        ))}
      </div>
      <figcaption>
        {segs.map((s) => (
          <span key={s.name} className="cache__legend">
            <span className={`cache__swatch ${cls(s)}`} aria-hidden="true" />
            {s.name} {n(s.bytes)} B
          </span>
        ))}
        <span className={`cache__legend${over ? ' is-over' : ''}`}>
          · {n(used)} of {n(total)} B used{over ? ' (over the budget)' : ''}
        </span>
      </figcaption>
    </figure>
  );
}
