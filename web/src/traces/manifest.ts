/** The shipped-trace manifest (public/traces/index.json), read by the trace picker. */

/** One shipped trace. */
export interface TraceEntry {
  /** Path under traces/. */
  file: string;
  title: string;
  /** Real excerpt, hand-written teaching trace, or generated. */
  kind: 'real' | 'teaching' | 'synthetic';
  /** Parser name (auto-detection finds the same one). */
  format: string;
  requests: number;
  description: string;
  /** Where its origin is documented, relative to traces/. */
  provenance: string;
  /** Engine config the trace is meant for (teaching traces target tiny devices). */
  config?: Record<string, unknown>;
}

export interface Manifest {
  traces: TraceEntry[];
}

/** Checks the shape of a parsed manifest, naming the first bad entry. */
export function parseManifest(json: unknown): Manifest {
  const traces = (json as Manifest | null)?.traces;
  if (!Array.isArray(traces)) throw new Error('traces/index.json: expected {"traces": [...]}');
  traces.forEach((t, i) => {
    for (const key of ['file', 'title', 'kind', 'format', 'description'] as const) {
      if (typeof t?.[key] !== 'string') throw new Error(`traces/index.json: entry ${i + 1} has no ${key}`);
    }
    if (typeof t.requests !== 'number') throw new Error(`traces/index.json: entry ${i + 1} has no requests count`);
  });
  return { traces };
}

/** Fetches and checks the manifest (the trace picker, and a shared link's trace names). */
export async function fetchManifest(): Promise<Manifest> {
  const r = await fetch('traces/index.json');
  if (!r.ok) throw new Error(`traces/index.json: HTTP ${r.status}`);
  return parseManifest(await r.json());
}
