/** What the engine says about sweeps and paper experiments (wasm `sweep*` / `experiment*`). */

/** A named sweep parameter (engine `sweep::PARAMS`). */
export interface NamedParam {
  name: string;
  key: string;
  label: string;
  unit: string;
  example: string;
}

/** One run of a sweep (engine `sweep::Point`): a scheme at one value. */
export interface SweepPoint {
  index: number;
  scheme: string;
  /** The compared series (a paper experiment's scheme with stated options); the scheme id otherwise. */
  series?: string;
  key: string;
  value: unknown;
  label: string;
  config: Record<string, unknown>;
}

/** A trace of a paper experiment: a shipped file or a generated stand-in. */
export interface ExperimentTrace {
  id: string;
  kind: 'shipped' | 'generated';
  file: string | null;
  max_requests: number | null;
  stands_in_for: string;
  /** Built to carry the paper's effect: the report's rows cover these (and the user's own traces). */
  carries_effect: boolean;
}

/** A compared series: a scheme with stated options. */
export interface ExperimentSeries {
  id: string;
  scheme: string;
  options: string[];
  label: string;
}

/** A paper experiment (engine `experiments::Experiment::to_json`). */
export interface ExperimentInfo {
  name: string;
  title: string;
  source: string;
  preset: string;
  schemes: string[];
  series: ExperimentSeries[];
  missing_schemes: string[];
  baseline: string | null;
  param: string;
  values: string;
  metrics: string[];
  /** Metric paths read at points through each run (over-time readings); empty: at the end only. */
  over_time: string[];
  differences: string;
  traces: ExperimentTrace[];
  points: SweepPoint[];
}

/** The paper's number beside ours (engine `experiments::ReportRow`). */
export interface ReportRow {
  what: string;
  paper: [number, number];
  paper_on: string;
  ours: [number, number] | null;
  unit: string;
  note: string;
  agreement: Agreement;
}

/** Whether ours agrees with the paper (engine `experiments::Agreement`). */
export interface Agreement {
  status: 'agrees' | 'direction' | 'disagrees' | 'value' | 'open';
  direction: boolean | null;
  factor: number | null;
  within: number | null;
  reason: string | null;
}

export interface SweepCatalog {
  params: NamedParam[];
  experiments: ExperimentInfo[];
}
