/**
 * Loads the real wasm build in Node for Vitest: Node's fetch cannot read file:// URLs, so
 * the bytes are read from disk and handed to initSync.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as wasm from '../engine/pkg/ftl_wasm.js';

let ready = false;

/**
 * A path relative to this file. Under jsdom, module URLs are served ones (http:), not file:
 * URLs; their path is then relative to the project root, where Vitest runs.
 */
function here(relative: string): string {
  const url = new URL(relative, import.meta.url);
  return url.protocol === 'file:' ? fileURLToPath(url) : join(process.cwd(), decodeURIComponent(url.pathname));
}

export function loadWasm(): typeof wasm {
  if (!ready) {
    const bytes = readFileSync(here('../engine/pkg/ftl_wasm_bg.wasm'));
    wasm.initSync({ module: bytes });
    ready = true;
  }
  return wasm;
}

/** A shipped trace from public/traces, as an ArrayBuffer. */
export function shippedTrace(name: string): ArrayBuffer {
  const buf = readFileSync(here(`../../../public/traces/${name}`));
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}
