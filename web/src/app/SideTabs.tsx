import { useId, useState, type KeyboardEvent } from 'react';
import type { SidePanel } from './panels';

/** Props of the tab set. */
export interface SideTabsProps {
  panels: SidePanel[];
  /** Accessible name of the tab list. */
  label: string;
}

/** An ARIA tab set (arrow keys move between tabs). */
export function SideTabs({ panels, label }: SideTabsProps) {
  const [active, setActive] = useState(panels[0]?.id);
  const base = useId();
  const current = panels.find((p) => p.id === active) ?? panels[0];
  if (!current) return null;
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    e.stopPropagation();
    const i = panels.indexOf(current);
    const next = panels[(i + (e.key === 'ArrowRight' ? 1 : panels.length - 1)) % panels.length];
    setActive(next.id);
    document.getElementById(`${base}-tab-${next.id}`)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKey}>
        {panels.map((p) => (
          <button
            key={p.id}
            id={`${base}-tab-${p.id}`}
            type="button"
            role="tab"
            aria-selected={p === current}
            aria-controls={`${base}-panel`}
            tabIndex={p === current ? 0 : -1}
            onClick={() => setActive(p.id)}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${current.id}`} className="tabs__panel" tabIndex={0}>
        <current.Component />
      </div>
    </div>
  );
}
