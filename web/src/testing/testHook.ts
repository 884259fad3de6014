/**
 * `window.__ftl`: a small read-mostly API for end-to-end tests (and curious users in the
 * console), so tests assert on engine state rather than pixels.
 */
import type { SimStore } from '../store/store';

export interface FtlTestApi {
  /** Status, requests served, state hash and every named counter. */
  snapshot(): { status: string; cursor: number; total: number; hash: string; counters: Record<string, number> };
  /** Steps `n` requests and resolves when the frame is shown. */
  step(n: number): Promise<number>;
}

declare global {
  interface Window {
    __ftl?: FtlTestApi;
  }
}

export function installTestHook(store: SimStore) {
  window.__ftl = {
    snapshot() {
      const s = store.getState();
      const counters: Record<string, number> = {};
      s.info?.counterNames.forEach((n, i) => (counters[n] = s.frame?.counters[i] ?? NaN));
      return {
        status: s.status,
        cursor: counters.requests_done ?? 0,
        total: s.info?.total ?? 0,
        hash: s.frame?.hash ?? '',
        counters,
      };
    },
    step: (n) => store.step(n),
  };
}
