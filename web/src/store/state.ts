/**
 * The shape of the store's state, in slices: each slice has one owner module that changes
 * it (timeline.ts, experiments.ts, ui.ts; the read-outs in reads.ts). The state stays one
 * flat object, so selectors read `s.pos` rather than `s.timeline.pos`, but a new view knows
 * where its fields belong: the comparison lab's moves go with the timeline, a shared URL
 * with the experiment, a panel toggle with the ui.
 */
import type { RequestTrace } from '../engine/events';
import type { Inspection } from '../engine/inspection';
import type { FrameData, Position, RequestReport, SimInfo, TraceParse } from '../engine/protocol';
import type { ResponseSeries } from '../engine/responseBins';
import type { ParseChoices } from '../traces/stream';
import { DEFAULT_EXPERIMENT, type Experiment } from './experiment';
import { DEFAULT_SPEED } from './speeds';

/** What the app is doing: 'loading' and 'error' disable the timeline. */
export type Status = 'loading' | 'ready' | 'playing' | 'done' | 'error';

/** Work the user is waiting for (shown as a progress bar after half a second). */
export interface Busy {
  label: string;
  /** Units done and total; total 0 = unknown (indeterminate bar). */
  done: number;
  total: number;
}

/** Where the simulation stands and what the last move showed (timeline.ts). */
export interface TimelineState {
  status: Status;
  /** What went wrong, when status is 'error' (or a step failed). */
  message?: string;
  /** A short note for the user (e.g. "no GC ahead"), cleared by the next move. */
  notice?: string;
  frame?: FrameData;
  pos: Position;
  /** The request in progress or last served, with its events. */
  current: RequestTrace | null;
  report: RequestReport | null;
  /** Requests the narration log holds, by index. */
  log: RequestTrace[];
  busy?: Busy;
  /** Bumped by every view from the engine (animations key on it). */
  seq: number;
}

/** What is loaded, and what a failed load asked for (experiments.ts). */
export interface ExperimentState {
  info?: SimInfo;
  /** The experiment loaded (a failed or cancelled load leaves it as it was). */
  experiment: Experiment;
  /** Statistics and parse report of the loaded trace. */
  trace?: TraceParse;
  /** Why the last trace could not be loaded (the previous experiment stays loaded). */
  traceError?: string;
  /**
   * The experiment asked for when that load failed: the selectors keep showing it beside
   * the reason until the user acts (dismisses, or loads something else).
   */
  refused?: Experiment;
  /** Parser options of the loaded experiment (Reset loads with them again). */
  parseChoices: ParseChoices;
}

/** Data read from the engine without moving (reads.ts). */
export interface ReadoutState {
  /** Response times binned over the trace, for the chart. */
  responses?: ResponseSeries;
  /** The scheme's RAM structures at the position (fetched while the cache panel is shown). */
  inspection?: Inspection;
}

/** How the user looks at it (ui.ts). */
export interface UiState {
  /** Index into SPEEDS. */
  speed: number;
  /** Block grid shows erase-count heat instead of roles. */
  heat: boolean;
  /** Keyboard help overlay open. */
  help: boolean;
  /** The side tab open (a panel id; undefined = the first). */
  tab?: string;
  /** What takes the main area (app/stageViews.ts names the views). */
  stage: StageChoice;
}

/**
 * The views on the stage: `main` takes the main area, `side` (if any) shares it, beside it.
 * Ids are view ids ('grid', or a side panel's id); the app falls back to the grid for an id
 * it does not know.
 */
export interface StageChoice {
  main: string;
  side?: string;
}

/** The stage of a fresh app: the block grid alone. */
export const DEFAULT_STAGE: StageChoice = { main: 'grid' };

/** Everything the views read from the store. */
export type SimState = TimelineState & ExperimentState & ReadoutState & UiState;

/** Reads and writes the state: what the slices get from the store. */
export interface StateCell {
  get(): SimState;
  set(patch: Partial<SimState>): void;
}

/** The state before the first load. */
export function initialState(): SimState {
  return {
    status: 'loading',
    pos: { request: 0, op: 0, ops: 0 },
    current: null,
    report: null,
    log: [],
    seq: 0,
    experiment: DEFAULT_EXPERIMENT,
    parseChoices: {},
    speed: DEFAULT_SPEED,
    heat: false,
    help: false,
    stage: DEFAULT_STAGE,
  };
}
