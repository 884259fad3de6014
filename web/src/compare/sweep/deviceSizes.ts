/**
 * The device each point of a footprint-axis experiment (seed 004's utilization) runs on, as
 * the engine sized it: per trace and utilization, the blocks and raw capacity of the point's
 * configuration, and the share of the logical space it pre-fills (the footprint). Read from
 * the points' configurations; nothing is recomputed here.
 */
import type { PointRun, SweepTrace } from './sweepLab';

/** One trace's device at one utilization. */
export interface DeviceSize {
  /** The utilization asked (footprint / capacity) and its label. */
  value: number;
  label: string;
  blocks: number;
  /** Raw capacity: blocks × pages per block × page size. */
  bytes: number;
  /** The pre-filled share of the logical space the engine set (just under `value`). */
  prefilled: number;
}

/** A trace's devices, with its footprint when it was measured (the user's trace). */
export interface TraceDevices {
  trace: string;
  user: boolean;
  footprintBytes: number | null;
  sizes: DeviceSize[];
}

interface DeviceFields {
  blocks: number;
  pages_per_block: number;
  page_bytes: number;
  utilization: number;
}

/** Each trace's device per value, in value order (one row per value: series share it). */
export function deviceSizes(runs: PointRun[], traces: SweepTrace[]): TraceDevices[] {
  return traces.map((t) => {
    const byIndex = new Map<number, DeviceSize>();
    for (const r of runs) {
      if (r.trace !== t.name || byIndex.has(r.point.index)) continue;
      const d = (r.point.config as { device?: Partial<DeviceFields> }).device;
      if (!d?.blocks || !d.pages_per_block || !d.page_bytes) continue;
      byIndex.set(r.point.index, {
        value: Number(r.point.value),
        label: r.point.label,
        blocks: d.blocks,
        bytes: d.blocks * d.pages_per_block * d.page_bytes,
        prefilled: d.utilization ?? 0,
      });
    }
    const sizes = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
    return { trace: t.name, user: t.user, footprintBytes: t.footprintBytes, sizes };
  });
}
