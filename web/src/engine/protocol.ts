/**
 * Messages between the UI and the engine worker: one discriminated union each way.
 * Every request carries an `id`; the reply to it carries the same `id`.
 */

/** Static facts about a loaded simulation. */
export interface SimInfo {
  /** Requests in the trace. */
  total: number;
  /** Names of `FrameData.counters`, in order (defined once, in the engine). */
  counterNames: string[];
  blocks: number;
  pagesPerBlock: number;
  scheme: string;
  traceName: string;
}

/** One snapshot for the views; buffers are copies, transferred from the worker. */
export interface FrameData {
  /** One byte per physical page, block-major: 0 free, 1 valid, 2 invalid. */
  pageStates: Uint8Array;
  /** One byte per block: the engine's BlockRole. */
  blockRoles: Uint8Array;
  validCounts: Uint32Array;
  eraseCounts: Uint32Array;
  /** Values named by `SimInfo.counterNames`. */
  counters: Float64Array;
  /** Engine state hash (16 hex digits). */
  hash: string;
}

export type ToWorker =
  | { type: 'load'; id: number; configJson: string; trace: ArrayBuffer; traceName: string; format?: string }
  | { type: 'step'; id: number; requests: number; budgetMs: number }
  | { type: 'frame'; id: number }
  | { type: 'metrics'; id: number };

export type FromWorker =
  | { type: 'loaded'; id: number; info: SimInfo; frame: FrameData }
  | { type: 'frame'; id: number; frame: FrameData; stepped: number; done: boolean }
  | { type: 'metrics'; id: number; json: string }
  | { type: 'error'; id: number; message: string };

/** Buffers of a frame, for `postMessage`'s transfer list. */
export function frameTransfer(f: FrameData): ArrayBuffer[] {
  return [f.pageStates, f.blockRoles, f.validCounts, f.eraseCounts, f.counters].map(
    (a) => a.buffer as ArrayBuffer,
  );
}
