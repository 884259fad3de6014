/**
 * A request's response time split into the parts the inspector shows: queueing, host
 * transfer, metadata loading (a metadata placement model moving metadata pages between
 * SRAM, DRAM and NAND), mapping (translation-page flash time), data, GC (and merges), RAM,
 * and waiting for a flash unit still busy with earlier posted programs (the engine posts
 * programs and erases, so a request can wait for a chip without queueing at the controller).
 */
import type { RequestReport } from '../../engine/protocol';

export type PartKey = 'queue' | 'host' | 'metadata' | 'mapping' | 'data' | 'gc' | 'ram' | 'wait';

/** One part of a response time. */
export interface Part {
  key: PartKey;
  label: string;
  /** Microseconds. */
  us: number;
  /** Fill colour (Okabe–Ito; the label carries the meaning too). */
  color: string;
}

export const PARTS: Record<PartKey, { label: string; color: string }> = {
  queue: { label: 'queueing', color: '#999999' },
  host: { label: 'host transfer', color: '#000000' },
  metadata: { label: 'metadata loading (SRAM / DRAM / NAND)', color: '#e69f00' },
  mapping: { label: 'mapping (translation pages)', color: '#cc79a7' },
  data: { label: 'data', color: '#0072b2' },
  gc: { label: 'GC and merges', color: '#d55e00' },
  ram: { label: 'RAM and cache work', color: '#009e73' },
  wait: { label: 'waiting for a busy chip', color: '#56b4e9' },
};

/** The GC part's label for a scheme with a worst-case bound: it collects in bounded steps. */
export const PARTIAL_GC_LABEL = 'partial GC step';

/**
 * The split of `r`; `overlap` > 0 when units worked in parallel (parts sum past the response).
 * `bounded`: the scheme has a response bound, so its GC work is one partial step of a collection.
 */
export function breakdown(r: RequestReport, bounded = false): { parts: Part[]; total: number; overlap: number } {
  const f = r.flash_us;
  const raw: [PartKey, number][] = [
    ['queue', r.queue_us],
    ['host', r.host_us ?? 0],
    ['metadata', r.meta_us ?? 0],
    ['mapping', f.translation ?? 0],
    ['data', (f.data ?? 0) + (f.log ?? 0) + (f.buffer ?? 0)],
    ['gc', (f.gc ?? 0) + (f.merge ?? 0)],
    ['ram', r.ram_us + r.lru_us],
  ];
  const sum = raw.reduce((a, [, v]) => a + v, 0);
  const rest = r.response_us - sum;
  // Rounding in µs leaves crumbs; ignore anything under a nanosecond.
  if (rest > 0.001) raw.push(['wait', rest]);
  const parts = raw
    .filter(([, v]) => v > 0.0005)
    .map(([key, us]) => ({ key, us, ...PARTS[key], ...(bounded && key === 'gc' ? { label: PARTIAL_GC_LABEL } : {}) }));
  return { parts, total: r.response_us, overlap: rest < -0.001 ? -rest : 0 };
}
