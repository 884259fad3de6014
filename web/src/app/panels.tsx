/**
 * The views of the app, by id: the tabbed side panels (a new panel, e.g. the trace panel in
 * web/src/traces/, is one entry here: an id, a tab label and a component) and the block grid,
 * which lives on the stage only. Any of them can take the stage (stageViews.ts).
 */
import type { ComponentType } from 'react';
import { ComparePanel } from '../compare/ComparePanel';
import { SyncView } from '../compare/sync/SyncView';
import { LessonsPanel } from '../lessons/LessonsPanel';
import { TracePanel } from '../traces/TracePanel';
import { BlockGrid } from '../views/BlockGrid/BlockGrid';
import { CachePanel } from '../views/Cache/CachePanel';
import { Counters } from '../views/Counters/Counters';
import { Inspector } from '../views/Inspector/Inspector';
import { ResponseChart } from '../views/Inspector/ResponseChart';
import { SchemeNotes } from '../views/SchemeNotes/SchemeNotes';
import { SettingsPanel } from '../views/Settings/SettingsPanel';
import { TreePanel } from '../views/Tree/TreePanel';
import { stageView } from '../store/stageViews';

/** One side panel. */
export interface SidePanel {
  id: string;
  label: string;
  Component: ComponentType;
  /** Shown outside the tabs when the screen is wide enough. */
  pinnedWhenWide?: boolean;
}

/** Panel `id` with its label from the stage's list of views. */
function panel(id: string, Component: ComponentType, pinnedWhenWide?: boolean): SidePanel {
  return { id, label: stageView(id)?.label ?? id, Component, ...(pinnedWhenWide ? { pinnedWhenWide } : {}) };
}

export const SIDE_PANELS: SidePanel[] = [
  panel('request', Inspector, true),
  panel('trace', TracePanel),
  panel('settings', SettingsPanel),
  panel('scheme', SchemeNotes),
  panel('counters', Counters),
  panel('cache', CachePanel),
  panel('tree', TreePanel),
  panel('compare', ComparePanel),
  panel('sync', SyncView),
  panel('lessons', LessonsPanel),
];

/** The block grid over the response chart: the stage's view of a fresh app. */
export function GridView() {
  return (
    <div className="grid-view">
      <BlockGrid />
      <ResponseChart />
    </div>
  );
}

/** Every view the stage can show, by id. */
export const VIEWS: Record<string, ComponentType> = {
  grid: GridView,
  ...Object.fromEntries(SIDE_PANELS.map((p) => [p.id, p.Component])),
};
