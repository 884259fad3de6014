/// <reference lib="webworker" />
// The engine worker: owns the wasm module and one simulation, answers protocol messages
// strictly in order. Long work (seeks, jumps) runs in slices: between slices the worker
// posts progress and returns to its event loop, so a `cancel` message gets through.
import init, * as wasm from './pkg/ftl_wasm.js';
import wasmUrl from './pkg/ftl_wasm_bg.wasm?url';
import { SimCore } from './core';
import { framePool } from './bufferPool';
import { FrameSender } from './frameWire';
import { MAIN_SIM, type FromWorker, type ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const core = init({ module_or_path: wasmUrl }).then(() => new SimCore(wasm));
const queue: ToWorker[] = [];
/** Frames go to the page as changes (frameWire.ts). */
const frames = new FrameSender();
// What scripts/measure-visualizer.mjs reads from the worker: buffers the pool had to make
// and change lists sent as the engine made them.
Object.assign(self, { ftlFrames: { pool: framePool, sender: frames } });
let busy = false;

/** Progress is posted at most this often (ms). */
const PROGRESS_EVERY_MS = 100;

// A MessageChannel round trip yields to the event loop without setTimeout's clamping.
const yieldChannel = new MessageChannel();
const yieldNow = () =>
  new Promise<void>((resolve) => {
    yieldChannel.port1.onmessage = () => resolve();
    yieldChannel.port2.postMessage(null);
  });

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const msg = queue.shift()!;
    try {
      const c = await core;
      const work = c.run(msg);
      let last = performance.now();
      let lastLabel = '';
      for (;;) {
        const r = work.next();
        if (r.done) {
          const [reply, transfer] = frames.send(...r.value, msg.sim ?? MAIN_SIM);
          self.postMessage(reply, transfer);
          break;
        }
        // A new label names the next phase (maybe a long one): it goes at once; counts at
        // most every PROGRESS_EVERY_MS.
        if (r.value.label !== lastLabel || performance.now() - last >= PROGRESS_EVERY_MS) {
          self.postMessage({ type: 'progress', id: msg.id, ...r.value });
          last = performance.now();
          lastLabel = r.value.label;
        }
        await yieldNow();
      }
    } catch (err) {
      // Only reached if the wasm module itself failed to load. Fatal, so the client starts
      // a new worker for the next request rather than asking this one again. (A trap in
      // the engine comes back from SimCore as a fatal reply; SimCore then refuses all work.)
      self.postMessage({
        type: 'error',
        id: msg.id,
        message: `The engine failed to start (${String(err)}).`,
        fatal: true,
      } satisfies FromWorker);
    }
  }
  busy = false;
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  // Buffers the page applied come back at once, not behind the queue's work.
  if (e.data.type === 'recycle') {
    for (const b of e.data.buffers) framePool.give(b);
    return;
  }
  if (e.data.type === 'cancel') {
    void core.then((c) => c.cancel());
    return;
  }
  queue.push(e.data);
  void drain();
};
