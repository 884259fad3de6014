/**
 * What a link holds (format 1), and the checks that turn the JSON of a link, which anyone can
 * write, into that shape. The experiment (scheme, settings, trace, parser options) must be
 * whole or the link is refused; the way it was looked at (position, open tab, comparison)
 * is dropped part by part, with a note, when it is wrong. Values are checked for type and
 * range here; whether the engine accepts a config is its own validation's job (restore.ts).
 */
import type { CompareMode } from '../compare/lab';
import type { ParseChoices } from '../engine/traceStream';
import { ShareError } from './codec';
import type { Json } from './configDiff';

type Obj = { [key: string]: Json };

/** The trace of a shared experiment. */
export type SharedTrace =
  /** A shipped trace, by its file name under traces/ (as in the manifest). */
  | { shipped: string }
  /** An uploaded trace: its name, its content hash (contentHash.ts) and size in bytes. */
  | { upload: { name: string; hash: string; size: number } };

/** The comparison lab's experiment: the schemes picked and the baseline. */
export interface SharedCompare {
  schemes: string[];
  baseline?: string;
  /** The tab's mode (absent: schemes side by side). */
  mode?: CompareMode;
}

/** A link's content, format 1. */
export interface SharedState {
  scheme: string;
  /** Device preset the config is based on (absent: the engine's default config). */
  preset?: string;
  /** Config changes from that base, scheme and options left out. */
  config?: Obj;
  /** The scheme's options that differ from its defaults. */
  options?: Obj;
  trace: SharedTrace;
  /** Parser options (absent: the defaults). */
  parse?: ParseChoices;
  /** Timeline position: requests served, operations of the next applied. */
  at?: [number, number];
  /** The side tab open. */
  tab?: string;
  /** Block grid in erase-count heat colours. */
  heat?: boolean;
  compare?: SharedCompare;
  /**
   * Further sections by name (e.g. sweeps): each is written and read by its own
   * ShareSection (sections.ts); this module only carries them.
   */
  sections?: Record<string, unknown>;
}

/** A checked link, and what was dropped from it (said to the user). */
export interface Parsed {
  state: SharedState;
  dropped: string[];
}

/** Longest name or text value taken from a link. */
const MAX_TEXT = 256;
/** Deepest nesting of a config change (the engine's config is 3-4 levels deep). */
const MAX_DEPTH = 6;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Shortened, for quoting a bad value in a message (shown as text, never as HTML). */
export function quote(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return `'${s.length > 40 ? `${s.slice(0, 40)}…` : s}'`;
}

/** Unicode's bidirectional controls (embeddings, overrides, isolates and marks). */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `name` with each bidirectional control written as its code point ("report<U+202E>vsc.exe"):
 * a link's upload name is shown to the user, and an override would make "…exe" read as
 * "…csv" in the prompt to choose the file.
 */
export function visibleBidi(name: string): string {
  return name.replace(BIDI_CONTROLS, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

function text(v: unknown, what: string, pattern?: RegExp): string {
  // eslint-disable-next-line no-control-regex
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT || /[\u0000-\u001f\u007f]/.test(v))
    throw new ShareError(`The link's ${what} is not a valid name: ${quote(v)}.`);
  if (pattern && !pattern.test(v)) throw new ShareError(`The link's ${what} is not a valid name: ${quote(v)}.`);
  return v;
}

function count(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new ShareError(`The link's ${what} is not a whole number ≥ 0: ${quote(v)}.`);
  return v;
}

/** A config change: JSON objects, finite numbers within the exact-integer range, bounded. */
function configValue(v: unknown, path: string, depth = 0): Json {
  if (depth > MAX_DEPTH) throw new ShareError(`The link's setting ${path} is nested too deeply.`);
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER)
      throw new ShareError(`The link's setting ${path} is out of range: ${quote(v)}.`);
    return v;
  }
  if (typeof v === 'string') {
    if (v.length > MAX_TEXT) throw new ShareError(`The link's setting ${path} is too long.`);
    return v;
  }
  if (Array.isArray(v)) {
    if (v.length > 64) throw new ShareError(`The link's setting ${path} has too many items.`);
    return v.map((x, i) => configValue(x, `${path}[${i}]`, depth + 1));
  }
  if (isObj(v)) {
    const out: Obj = {};
    const keys = Object.keys(v);
    if (keys.length > 64) throw new ShareError(`The link's setting ${path} has too many keys.`);
    for (const k of keys) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(k))
        throw new ShareError(`The link's settings name an invalid key under ${path}: ${quote(k)}.`);
      out[k] = configValue(v[k], path ? `${path}.${k}` : k, depth + 1);
    }
    return out;
  }
  throw new ShareError(`The link's setting ${path} has an invalid value.`);
}

function configObj(v: unknown, what: string): Obj | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) throw new ShareError(`The link's ${what} are not a JSON object.`);
  return configValue(v, what === 'options' ? 'options' : '') as Obj;
}

function trace(v: unknown): SharedTrace {
  if (!isObj(v)) throw new ShareError('The link names no trace.');
  if ('shipped' in v) return { shipped: text(v.shipped, 'trace', /^[A-Za-z0-9_./-]+$/) };
  if (isObj(v.upload)) {
    const u = v.upload;
    const hash = u.hash;
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      throw new ShareError(`The link's trace hash is not a SHA-256 hash: ${quote(hash)}.`);
    return { upload: { name: visibleBidi(text(u.name, 'trace name')), hash, size: count(u.size, 'trace size') } };
  }
  throw new ShareError('The link names no trace.');
}

function flag(x: unknown, what: string): boolean {
  if (typeof x !== 'boolean')
    throw new ShareError(`The link's parser option ${what} is not true or false: ${quote(x)}.`);
  return x;
}

function amount(x: unknown, what: string, positive = false): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || (positive && x === 0) || x > 1e12)
    throw new ShareError(`The link's parser option ${what} is out of range: ${quote(x)}.`);
  return x;
}

function oneOf<T extends string>(x: unknown, what: string, allowed: readonly T[]): T {
  if (!allowed.includes(x as T))
    throw new ShareError(
      `The link's parser option ${what} is not ${allowed.map((a) => `'${a}'`).join(' or ')}: ${quote(x)}.`,
    );
  return x as T;
}

/**
 * A check for every parser option. The mapped type makes a new field of ParseChoices a
 * compile error here until it has a check, so links never silently drop or pass one.
 */
const CHOICE_CHECKS: { [K in keyof Required<ParseChoices>]: (x: unknown) => ParseChoices[K] } = {
  format: (x) => text(x, 'trace format', /^[a-z0-9_-]+$/),
  skipBadLines: (x) => flag(x, 'skipBadLines'),
  maxRequests: (x) => count(x, 'parser option maxRequests'),
  device: (x) => text(x, 'device filter'),
  only: (x) => oneOf(x, 'only', ['reads', 'writes'] as const),
  fromS: (x) => amount(x, 'fromS'),
  untilS: (x) => amount(x, 'untilS'),
  timeScale: (x) => amount(x, 'timeScale', true),
  blkparseEvent: (x) => oneOf(x, 'blkparseEvent', ['Q', 'D'] as const),
  timeUnit: (x) => text(x, 'time unit', /^[a-z]{1,16}$/),
  sectorSize: (x) => count(x, 'parser option sectorSize'),
};

/** Parser options: each field checked for its type; an unknown one refuses the link. */
function parseChoices(v: unknown): ParseChoices | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) throw new ShareError("The link's parser options are not a JSON object.");
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!Object.hasOwn(CHOICE_CHECKS, k)) throw new ShareError(`The link has an unknown parser option ${quote(k)}.`);
    out[k] = CHOICE_CHECKS[k as keyof ParseChoices](x);
  }
  return out as ParseChoices;
}

/** What the app knows, against which names in a link are checked. */
export interface Known {
  schemes: string[];
  /** Shipped trace files (manifest). */
  traces: string[];
  tabs: string[];
  presets: string[];
}

/**
 * Checks a decoded link against what the app knows. Throws a ShareError when the experiment
 * cannot be rebuilt; parts of the view that are wrong are dropped and listed.
 */
export function parseShared(raw: unknown, known: Known): Parsed {
  if (!isObj(raw)) throw new ShareError("The link's experiment is not a JSON object.");
  const dropped: string[] = [];
  const scheme = text(raw.scheme, 'scheme');
  if (!known.schemes.includes(scheme))
    throw new ShareError(
      `The link asks for scheme ${quote(scheme)}, which this FTL Lab does not have (it has ${known.schemes.join(', ')}).`,
    );
  const state: SharedState = { scheme, trace: trace(raw.trace) };
  if (raw.preset !== undefined) {
    const p = text(raw.preset, 'device preset');
    if (!known.presets.includes(p))
      throw new ShareError(`The link's device preset ${quote(p)} is not one this FTL Lab knows.`);
    state.preset = p;
  }
  const config = configObj(raw.config, 'settings');
  if (config) {
    if ('scheme' in config || 'options' in config)
      throw new ShareError("The link's settings repeat the scheme or its options.");
    state.config = config;
  }
  const options = configObj(raw.options, 'options');
  if (options) state.options = options;
  if ('shipped' in state.trace && !known.traces.includes(state.trace.shipped)) {
    throw new ShareError(`The link's trace ${quote(state.trace.shipped)} is not one of the shipped traces.`);
  }
  const parse = parseChoices(raw.parse);
  if (parse) state.parse = parse;

  const at = raw.at;
  if (at !== undefined) {
    if (
      Array.isArray(at) &&
      at.length === 2 &&
      at.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0)
    )
      state.at = [at[0], at[1]];
    else dropped.push(`the position ${quote(at)} is not two whole numbers; the experiment opens at its start`);
  }
  if (raw.tab !== undefined) {
    if (typeof raw.tab === 'string' && known.tabs.includes(raw.tab)) state.tab = raw.tab;
    else dropped.push(`there is no tab ${quote(raw.tab)}`);
  }
  if (raw.heat !== undefined) {
    if (typeof raw.heat === 'boolean') state.heat = raw.heat;
    else dropped.push(`heat ${quote(raw.heat)} is not true or false`);
  }
  if (raw.compare !== undefined) {
    const c = raw.compare;
    const ok =
      isObj(c) &&
      Array.isArray(c.schemes) &&
      c.schemes.length <= known.schemes.length &&
      c.schemes.every((x) => typeof x === 'string' && known.schemes.includes(x));
    const baseOk =
      ok &&
      (c.baseline === undefined || (typeof c.baseline === 'string' && (c.schemes as string[]).includes(c.baseline)));
    const modeOk = ok && (c.mode === undefined || c.mode === 'schemes' || c.mode === 'sweep');
    if (ok && baseOk && modeOk) {
      state.compare = {
        schemes: [...new Set(c.schemes as string[])],
        ...(c.baseline !== undefined ? { baseline: c.baseline as string } : {}),
        ...(c.mode !== undefined ? { mode: c.mode as CompareMode } : {}),
      };
    } else dropped.push('the comparison names schemes or a mode this FTL Lab does not have; it is left empty');
  }
  if (raw.sections !== undefined) {
    if (isObj(raw.sections)) state.sections = raw.sections;
    else dropped.push('its extra sections are not a JSON object');
  }
  return { state, dropped };
}
