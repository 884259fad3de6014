/**
 * Error text shared by both sides of the worker boundary: the worker (SimCore) turns what
 * wasm throws into reply messages, the store shows them. Kept apart from core.ts so the main
 * thread never imports worker code.
 */

/** Text of anything thrown (wasm throws Error objects built from engine errors). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
