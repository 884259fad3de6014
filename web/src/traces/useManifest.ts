import { useEffect, useState } from 'react';
import { type Manifest, parseManifest } from './manifest';

/** The shipped-trace manifest, fetched once; `error` says why it could not be read. */
export function useManifest(): { manifest?: Manifest; error?: string } {
  const [state, setState] = useState<{ manifest?: Manifest; error?: string }>({});
  useEffect(() => {
    let alive = true;
    fetch('traces/index.json')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`traces/index.json: HTTP ${r.status}`))))
      .then((j) => alive && setState({ manifest: parseManifest(j) }))
      .catch((e: unknown) => alive && setState({ error: e instanceof Error ? e.message : String(e) }));
    return () => {
      alive = false;
    };
  }, []);
  return state;
}
