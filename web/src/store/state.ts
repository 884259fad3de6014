/** The shape of the store's state (store.ts holds it and the moves that change it). */
import type { RequestTrace } from '../engine/events';
import type { Inspection } from '../engine/inspection';
import type { FrameData, Position, RequestReport, SimInfo, TraceParse } from '../engine/protocol';
import type { ResponseSeries } from '../engine/responseBins';
import type { ParseChoices } from '../traces/stream';
import { DEFAULT_EXPERIMENT, DEFAULT_SPEED, type Experiment } from './experiment';

/** What the app is doing: 'loading' and 'error' disable the timeline. */
export type Status = 'loading' | 'ready' | 'playing' | 'done' | 'error';

/** Work the user is waiting for (shown as a progress bar after half a second). */
export interface Busy {
  label: string;
  /** Units done and total; total 0 = unknown (indeterminate bar). */
  done: number;
  total: number;
}

/** Everything the views read from the store. */
export interface SimState {
  status: Status;
  /** What went wrong, when status is 'error' (or a step failed). */
  message?: string;
  /** A short note for the user (e.g. "no GC ahead"), cleared by the next move. */
  notice?: string;
  info?: SimInfo;
  frame?: FrameData;
  pos: Position;
  /** The request in progress or last served, with its events. */
  current: RequestTrace | null;
  report: RequestReport | null;
  /** Requests the narration log holds, by index. */
  log: RequestTrace[];
  /** Response times binned over the trace, for the chart. */
  responses?: ResponseSeries;
  /** Index into SPEEDS. */
  speed: number;
  /** The experiment loaded (a failed or cancelled load leaves it as it was). */
  experiment: Experiment;
  busy?: Busy;
  /** Block grid shows erase-count heat instead of roles. */
  heat: boolean;
  /** Keyboard help overlay open. */
  help: boolean;
  /** Bumped by every view from the engine (animations key on it). */
  seq: number;
  /** Statistics and parse report of the loaded trace. */
  trace?: TraceParse;
  /** Why the last trace could not be loaded (the previous experiment stays loaded). */
  traceError?: string;
  /** The scheme's RAM structures at the position (fetched while the cache panel is shown). */
  inspection?: Inspection;
  /**
   * The experiment asked for when that load failed: the selectors keep showing it beside
   * the reason until the user acts (dismisses, or loads something else).
   */
  refused?: Experiment;
  /** Parser options of the loaded experiment (Reset loads with them again). */
  parseChoices: ParseChoices;
}

/** The state before the first load. */
export function initialState(): SimState {
  return {
    status: 'loading',
    speed: DEFAULT_SPEED,
    experiment: DEFAULT_EXPERIMENT,
    pos: { request: 0, op: 0, ops: 0 },
    current: null,
    report: null,
    log: [],
    heat: false,
    help: false,
    seq: 0,
    parseChoices: {},
  };
}
