/**
 * Loads the real wasm build in Node for Vitest: Node's fetch cannot read file:// URLs, so
 * the bytes are read from disk and handed to initSync.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as wasm from '../engine/pkg/ftl_wasm.js';

let ready = false;

export function loadWasm(): typeof wasm {
  if (!ready) {
    const bytes = readFileSync(fileURLToPath(new URL('../engine/pkg/ftl_wasm_bg.wasm', import.meta.url)));
    wasm.initSync({ module: bytes });
    ready = true;
  }
  return wasm;
}

/** A shipped trace from public/traces, as an ArrayBuffer. */
export function shippedTrace(name: string): ArrayBuffer {
  const buf = readFileSync(fileURLToPath(new URL(`../../../public/traces/${name}`, import.meta.url)));
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}
