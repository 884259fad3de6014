/**
 * An experiment ⇄ the experiment part of a link. The config goes as its changes from the
 * nearest base (configDiff.ts) and the scheme's options as their changes from the scheme's
 * defaults; coming back, both are laid over the same bases, so the engine is given the same
 * config it ran (a key left out of a config takes the engine default, which is the base).
 */
import type { Catalog } from '../engine/protocol';
import type { Experiment } from '../store/experiment';
import type { ParseChoices } from '../engine/traceStream';
import { ShareError } from './codec';
import { configDiff, configOf, deltaOf, type Json } from './configDiff';
import type { SharedState, SharedTrace } from './state';

type Obj = { [key: string]: Json };

/** The part of a link that is the experiment (what a load needs). */
export type SharedExperiment = Pick<SharedState, 'scheme' | 'preset' | 'config' | 'options' | 'trace' | 'parse'>;

/** Parser options without the fields left at their defaults (so equal choices encode equally). */
export function compactChoices(c: ParseChoices): ParseChoices | undefined {
  const out = Object.fromEntries(
    Object.entries(c).filter(([, v]) => v !== undefined && v !== '' && v !== false),
  ) as ParseChoices;
  return Object.keys(out).length ? out : undefined;
}

/** The experiment part of a link for `experiment` (its trace already described). */
export function shareExperiment(
  catalog: Pick<Catalog, 'defaultConfig' | 'presets' | 'schemes'>,
  experiment: Experiment,
  trace: SharedTrace,
  choices: ParseChoices,
): SharedExperiment {
  const { scheme, options, ...rest } = experiment.config;
  const spec = catalog.schemes.find((s) => s.id === scheme);
  const out: SharedExperiment = { scheme, trace };
  const delta = deltaOf(catalog, JSON.parse(JSON.stringify(rest)) as Obj);
  if (delta.preset) out.preset = delta.preset;
  if (delta.diff) out.config = delta.diff;
  const opts =
    options && typeof options === 'object'
      ? (configDiff((spec?.default_options ?? {}) as Obj, options as Obj) as Obj | undefined)
      : undefined;
  if (opts) out.options = opts;
  const parse = compactChoices(choices);
  if (parse) out.parse = parse;
  return out;
}

/** The engine config a link's experiment stands for (its scheme's options filled in). */
export function configFromShared(
  catalog: Pick<Catalog, 'defaultConfig' | 'presets' | 'schemes'>,
  s: SharedExperiment,
): Experiment['config'] {
  const spec = catalog.schemes.find((x) => x.id === s.scheme);
  if (!spec) throw new ShareError(`The link asks for scheme '${s.scheme}', which this FTL Lab does not have.`);
  let base: Obj;
  try {
    base = configOf(catalog, { preset: s.preset, diff: s.config });
  } catch (e) {
    throw new ShareError(`The link's settings cannot be rebuilt: ${(e as Error).message}.`);
  }
  return { ...base, scheme: s.scheme, options: { ...(spec.default_options as Obj), ...(s.options ?? {}) } };
}

/** A stable text of a link's experiment, to tell whether two links load the same thing. */
export function experimentKey(s: SharedExperiment): string {
  const trace = 'shipped' in s.trace ? { shipped: s.trace.shipped } : { upload: s.trace.upload.hash };
  return stable([s.scheme, s.preset ?? null, s.config ?? null, s.options ?? null, trace, s.parse ?? null]);
}

/** JSON text with object keys sorted (two equal values give the same text). */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
