/**
 * The tabbed side panels. A new panel (e.g. the trace panel in web/src/traces/) is one
 * entry here: an id, a tab label and a component.
 */
import type { ComponentType } from 'react';
import { ComparePanel } from '../compare/ComparePanel';
import { SyncView } from '../compare/sync/SyncView';
import { LessonsPanel } from '../lessons/LessonsPanel';
import { TracePanel } from '../traces/TracePanel';
import { CachePanel } from '../views/Cache/CachePanel';
import { Counters } from '../views/Counters/Counters';
import { Inspector } from '../views/Inspector/Inspector';
import { SchemeNotes } from '../views/SchemeNotes/SchemeNotes';
import { SettingsPanel } from '../views/Settings/SettingsPanel';
import { TreePanel } from '../views/Tree/TreePanel';

/** One side panel. */
export interface SidePanel {
  id: string;
  label: string;
  Component: ComponentType;
  /** Shown outside the tabs when the screen is wide enough. */
  pinnedWhenWide?: boolean;
}

export const SIDE_PANELS: SidePanel[] = [
  { id: 'request', label: 'Request', Component: Inspector, pinnedWhenWide: true },
  { id: 'trace', label: 'Trace', Component: TracePanel },
  { id: 'settings', label: 'Settings', Component: SettingsPanel },
  { id: 'scheme', label: 'Scheme notes', Component: SchemeNotes },
  { id: 'counters', label: 'Counters', Component: Counters },
  { id: 'cache', label: 'RAM / cache', Component: CachePanel },
  { id: 'tree', label: 'Tree', Component: TreePanel },
  { id: 'compare', label: 'Compare', Component: ComparePanel },
  { id: 'sync', label: 'Sync', Component: SyncView },
  { id: 'lessons', label: 'Lessons', Component: LessonsPanel },
];
