const n = (v: number) => v.toLocaleString('en-US');

/** How the RAM budget is split now: one bar, one segment per budget, scaled to the budget. */
export function BudgetBar({ total, used, budgets }: { total: number; used: number; budgets: { name: string; bytes: number }[] }) {
  const scale = Math.max(total, used, 1);
  const over = used > total && total > 0;
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
        <span className={`cache__legend${over ? ' is-over' : ''}`}>
          · {n(used)} of {n(total)} B used{over ? ' (over the budget)' : ''}
        </span>
      </figcaption>
    </figure>
  );
}
