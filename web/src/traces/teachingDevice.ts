/**
 * A teaching trace brings a tiny device (8 blocks x 8 pages, one reserve block) on which
 * `page` shows every overwrite and GC; the demand-paged and tree schemes need more spare
 * room than it has (a second open block for translation pages plus the GC reserve). For
 * them the teaching README's route is the `teaching` preset's device: this is that config,
 * offered in one click beside the refusal.
 */
import type { Preset } from '../engine/protocol';
import type { Experiment } from '../store/experiment';
import type { TraceEntry } from './manifest';

/** The preset a teaching trace falls back to. */
export const TEACHING_PRESET = 'teaching';

/**
 * `refused` (a teaching trace's experiment) on the teaching preset's device and RAM, keeping
 * its scheme and the trace's workload mapping; undefined when it is not a teaching trace
 * bringing its own device, or no such preset exists.
 */
export function onTeachingDevice(
  refused: Experiment,
  shipped: TraceEntry[],
  presets: Preset[],
): Experiment | undefined {
  const t = shipped.find((x) => x.kind === 'teaching' && x.file === refused.traceName && !refused.file);
  const preset = presets.find((p) => p.name === TEACHING_PRESET);
  if (!t?.config?.device || !preset) return undefined;
  const { device: _device, gc: _gc, ...rest } = t.config;
  const config = { ...rest, scheme: refused.config.scheme, device: preset.device, ram: { bytes: preset.ram_bytes } };
  return { ...refused, config };
}

/** "64 blocks × 16 pages" of a preset's device. */
export function deviceWords(device: Record<string, unknown>): string {
  return `${Number(device.blocks).toLocaleString('en-US')} blocks × ${Number(device.pages_per_block).toLocaleString('en-US')} pages`;
}
