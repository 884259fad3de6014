/**
 * A SimClient that answers from the real engine in this thread (SimCore over the Node wasm
 * build), for component tests that need the engine's own catalog, checks and previews.
 */
import { EngineError, type SimClient } from '../engine/client';
import { SimCore } from '../engine/core';
import type { ToWorker } from '../engine/protocol';
import { loadWasm } from './wasmNode';

export function engineClient(): SimClient {
  const core = new SimCore(loadWasm());
  let id = 0;
  return {
    request: async (body: Omit<ToWorker, 'id'>) => {
      const [reply] = core.handle({ ...body, id: ++id } as ToWorker);
      if (reply.type === 'error') throw new EngineError(reply.message, reply.fatal, reply.cancelled);
      return reply;
    },
    cancel: () => {},
  } as unknown as SimClient;
}
