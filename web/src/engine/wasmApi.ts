/**
 * The parts of the wasm module the worker uses, as interfaces, so SimCore runs on the
 * browser build, the Node-loaded build in tests, or a fake.
 */
import type { FrameData } from './protocol';

/** The wasm module's free functions and the Simulation constructor. */
export interface WasmApi {
  Simulation: new (configJson: string, trace: Uint8Array, traceName: string, format?: string | null) => WasmSimulation;
  counterNames(): string[];
  schemesJson(): string;
}

/** The wasm Simulation object's surface (see web/src/engine/pkg/ftl_wasm.d.ts). */
export interface WasmSimulation {
  step(n: number): number;
  stepUntil(what: string, max: number): number;
  seek(cursor: number): void;
  cursor(): number;
  total(): number;
  done(): boolean;
  frame(): Omit<FrameData, 'hash' | 'pageKeys'>;
  metricsJson(): string;
  lastRequestJson(): string;
  responses(from: number, to: number): Float32Array;
  takeEventsJson(): string;
  stateHash(): string;
  free(): void;
}
