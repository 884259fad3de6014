import { useId } from 'react';
import { useSim, useStore } from '../store/useSim';
import type { SidePanel } from './panels';
import { OnStageNote } from './Stage';
import { onStage, stageView } from '../store/stageViews';

/** Props of the tab set. */
export interface SideTabsProps {
  panels: SidePanel[];
  /** Accessible name of the tab list. */
  label: string;
}

/**
 * An ARIA tab set. Each tab is its own tab stop and Enter / Space opens it (Space on the open
 * tab plays, keymap.ts): the arrow keys
 * stay the timeline's wherever focus is, so they do not move between tabs. "On stage" moves
 * the open tab's view to the main area; the tab then says where it went.
 */
export function SideTabs({ panels, label }: SideTabsProps) {
  // The open tab lives in the store: a shared link names it, and back / forward restore it.
  const store = useStore();
  const active = useSim((s) => s.tab);
  const stage = useSim((s) => s.stage);
  const setActive = (id: string) => store.setTab(id);
  const base = useId();
  const current = panels.find((p) => p.id === active) ?? panels[0];
  if (!current) return null;
  const staged = onStage(stage, current.id);
  const key = stageView(current.id)?.key;
  return (
    <div className="tabs">
      <div className="tabs__head">
        <div role="tablist" aria-label={label} className="tabs__list">
          {panels.map((p) => (
            <button
              key={p.id}
              id={`${base}-tab-${p.id}`}
              type="button"
              role="tab"
              aria-selected={p === current}
              aria-controls={`${base}-panel`}
              onClick={() => setActive(p.id)}
            >
              {p.label}
            </button>
          ))}
        </div>
        {!staged && (
          <button
            type="button"
            className="tabs__stage"
            onClick={() => store.setStage({ main: current.id })}
            title={`Show ${current.label} in the main area${key ? ` (key ${key}; 1 brings the block grid back)` : ''}`}
          >
            On stage
          </button>
        )}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-tab-${current.id}`}
        className="tabs__panel"
        tabIndex={0}
      >
        {staged ? <OnStageNote id={current.id} /> : <current.Component />}
      </div>
    </div>
  );
}
