/**
 * The views that can take the stage (the main area), with the key that puts each there, and
 * the moves between stage choices. No components here: the keymap and the link's checks read
 * it without pulling in every view (panels.tsx pairs the ids with components).
 */
import { DEFAULT_STAGE, type StageChoice } from './state';

/** A view the stage can show. */
export interface StageView {
  id: string;
  label: string;
  /** The digit that puts it on the stage alone (Shift + it: beside the view there); the ten are taken, so a new view may have none (the stage bar still offers it). */
  key?: string;
}

/** Every view, in key order: the grid first, then the side tabs that matter most on a projector. */
export const STAGE_VIEWS: readonly StageView[] = [
  { id: 'grid', label: 'Block grid', key: '1' },
  { id: 'tree', label: 'Tree', key: '2' },
  { id: 'cache', label: 'RAM / cache', key: '3' },
  { id: 'compare', label: 'Compare', key: '4' },
  { id: 'settings', label: 'Settings', key: '5' },
  { id: 'trace', label: 'Trace', key: '6' },
  { id: 'sync', label: 'Sync', key: '7' },
  { id: 'counters', label: 'Counters', key: '8' },
  { id: 'scheme', label: 'Scheme notes', key: '9' },
  { id: 'request', label: 'Request', key: '0' },
  { id: 'lessons', label: 'Lessons' },
];

/** The view `id`, if there is one. */
export function stageView(id: string | undefined): StageView | undefined {
  return STAGE_VIEWS.find((v) => v.id === id);
}

/** The view whose key is `key` (a digit), if any. */
export function viewForKey(key: string): StageView | undefined {
  return key ? STAGE_VIEWS.find((v) => v.key === key) : undefined;
}

/** `choice` with ids the app does not know replaced: an unknown main by the grid, an unknown side dropped. */
export function knownStage(choice: StageChoice): StageChoice {
  const main = stageView(choice.main) ? choice.main : DEFAULT_STAGE.main;
  return choice.side && choice.side !== main && stageView(choice.side) ? { main, side: choice.side } : { main };
}

/** View `id` alone on the stage. */
export function alone(id: string): StageChoice {
  return { main: id };
}

/** View `id` beside the main view (or, already there, taken away; the main view stays). */
export function beside(stage: StageChoice, id: string): StageChoice {
  if (id === stage.main) return stage;
  return stage.side === id ? { main: stage.main } : { main: stage.main, side: id };
}

/** The stage without view `id`: the view beside moves over, or the grid comes back. */
export function without(stage: StageChoice, id: string): StageChoice {
  if (stage.side === id) return { main: stage.main };
  if (stage.main !== id) return stage;
  return stage.side ? { main: stage.side } : { main: DEFAULT_STAGE.main };
}

/** Whether view `id` is on the stage. */
export function onStage(stage: StageChoice, id: string): boolean {
  return stage.main === id || stage.side === id;
}
