/// <reference lib="webworker" />
// The engine worker: owns the wasm module and one simulation, answers protocol messages.
// Messages are handled strictly in order; the UI never waits on the engine's thread.
import init, * as wasm from './pkg/ftl_wasm.js';
import wasmUrl from './pkg/ftl_wasm_bg.wasm?url';
import { SimCore } from './core';
import type { ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const core = init({ module_or_path: wasmUrl }).then(() => new SimCore(wasm));

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  try {
    const [reply, transfer] = (await core).handle(e.data);
    self.postMessage(reply, transfer);
  } catch (err) {
    // Only reached if the wasm module itself failed to load.
    self.postMessage({ type: 'error', id: e.data.id, message: `engine failed to start: ${String(err)}` });
  }
};
