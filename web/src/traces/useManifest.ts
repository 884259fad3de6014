import { useEffect, useState } from 'react';
import { fetchManifest, type Manifest } from './manifest';

/** The shipped-trace manifest, fetched once; `error` says why it could not be read. */
export function useManifest(): { manifest?: Manifest; error?: string } {
  const [state, setState] = useState<{ manifest?: Manifest; error?: string }>({});
  useEffect(() => {
    let alive = true;
    fetchManifest()
      .then((manifest) => alive && setState({ manifest }))
      .catch((e: unknown) => alive && setState({ error: e instanceof Error ? e.message : String(e) }));
    return () => {
      alive = false;
    };
  }, []);
  return state;
}
