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
}

/** A paper experiment (engine `experiments::Experiment::to_json`). */
export interface ExperimentInfo {
  name: string;
  title: string;
  source: string;
  preset: string;
  schemes: string[];
  missing_schemes: string[];
  baseline: string | null;
  param: string;
  values: string;
  metrics: string[];
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
}

export interface SweepCatalog {
  params: NamedParam[];
  experiments: ExperimentInfo[];
}
