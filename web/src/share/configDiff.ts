/**
 * A config as the changes from a base: the engine's default config, or one of its device
 * presets laid over the defaults, whichever leaves the fewer changes. A link then holds only
 * what the user changed (usually a handful of keys), and opening it rebuilds the full config:
 * the same config the engine ran, so the same state hashes.
 */
import type { Catalog, Preset } from '../engine/protocol';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** `over` laid on `base`: objects merge key by key; anything else replaces. */
export function applyDiff(base: Json, over: Json): Json {
  if (!isObj(base) || !isObj(over)) return over;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? applyDiff(base[k], v) : v;
  return out;
}

/**
 * What `config` changes from `base` (undefined when nothing): objects are compared key by key,
 * anything else (numbers, strings, arrays, null) by value. `applyDiff(base, diff)` gives back
 * `config` wherever `config` has a key; keys it leaves out keep the base's value, which is what
 * the engine does with a key left out when the base is its default.
 */
export function configDiff(base: Json, config: Json): Json | undefined {
  if (isObj(base) && isObj(config)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(config)) {
      const d = k in base ? configDiff(base[k], v) : v;
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(base) === JSON.stringify(config) ? undefined : config;
}

/** The full config a preset stands for: the defaults with the preset's device, RAM and timing (when it has one). */
export function presetBase(catalog: Pick<Catalog, 'defaultConfig'>, preset?: Preset): Obj {
  const base = catalog.defaultConfig as Obj;
  if (!preset) return base;
  const withTiming = preset.timing === undefined ? base : ({ ...base, timing: preset.timing } as Obj);
  return applyDiff(withTiming, { device: preset.device as Obj, ram: { bytes: preset.ram_bytes } }) as Obj;
}

/** A config as its nearest base and the changes from it. */
export interface ConfigDelta {
  /** Preset name (absent: the engine's defaults). */
  preset?: string;
  /** Changes from that base (absent: none). */
  diff?: Obj;
}

/** Size of a delta in the link (its JSON length), for choosing the base. */
const size = (d: ConfigDelta) => JSON.stringify(d).length;

/** `config` (scheme left out) as the changes from whichever base leaves the fewest. */
export function deltaOf(catalog: Pick<Catalog, 'defaultConfig' | 'presets'>, config: Obj): ConfigDelta {
  let best: ConfigDelta = { diff: configDiff(catalog.defaultConfig as Obj, config) as Obj | undefined };
  for (const p of catalog.presets) {
    const d: ConfigDelta = { preset: p.name, diff: configDiff(presetBase(catalog, p), config) as Obj | undefined };
    if (size(d) < size(best)) best = d;
  }
  if (!best.diff) delete best.diff;
  return best;
}

/** The full config a delta stands for; an unknown preset is the caller's error to name. */
export function configOf(catalog: Pick<Catalog, 'defaultConfig' | 'presets'>, delta: ConfigDelta): Obj {
  const preset = delta.preset === undefined ? undefined : catalog.presets.find((p) => p.name === delta.preset);
  if (delta.preset !== undefined && !preset) throw new Error(`unknown device preset '${delta.preset}'`);
  return applyDiff(presetBase(catalog, preset), delta.diff ?? {}) as Obj;
}
