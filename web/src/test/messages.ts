/** Worker replies for tests that play the worker's side. */
import type { FrameData, FromWorker } from '../engine/protocol';

/** A `view` reply carrying `frame` at the start of the trace (request 0, nothing current). */
export function viewReply(frame: FrameData, id = 1): FromWorker {
  return {
    type: 'view',
    id,
    view: {
      frame,
      pos: { request: 0, op: 0, ops: 0 },
      done: false,
      stepped: 0,
      current: null,
      report: null,
      recent: [],
    },
  };
}
