/**
 * The Compare tab's sweep settings in a link (its sweeps, through the sections.ts
 * extension point): the parameter, its values as typed, and the schemes picked. Results are
 * not carried: the recipient presses Run (the engine expands and checks the values again, so a
 * bad value from a link is refused by the engine with its own message).
 */
import { sweepLab } from '../compare/theLab';
import { SweepLab } from '../compare/sweep/sweepLab';
import type { ShareSection } from './sections';
import { quote } from './state';

/** What a fresh sweep lab starts with (a link without a sweep returns to it). */
const DEFAULTS = new SweepLab(() => {
  throw new Error('never run');
}).getState();

/** A sweep's settings in a link. */
export interface SharedSweep {
  param: string;
  values: string;
  schemes: string[];
}

function parse(v: unknown): SharedSweep | string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'its sweep is not a JSON object';
  const o = v as Record<string, unknown>;
  // eslint-disable-next-line no-control-regex
  const plain = (x: unknown, max: number) =>
    typeof x === 'string' && x.length <= max && !/[\u0000-\u001f\u007f]/.test(x);
  if (!plain(o.param, 100) || !/^[A-Za-z0-9_.-]*$/.test(o.param as string))
    return `its sweep parameter ${quote(o.param)} is not a parameter name`;
  if (!plain(o.values, 2000)) return `its sweep values ${quote(o.values)} are not a short text`;
  if (!Array.isArray(o.schemes) || o.schemes.length > 32 || !o.schemes.every((s) => plain(s, 40)))
    return 'its sweep schemes are not a list of names';
  return { param: o.param as string, values: o.values as string, schemes: [...new Set(o.schemes as string[])] };
}

export const sweepSection: ShareSection = {
  key: 'sweep',
  capture() {
    const s = sweepLab.getState();
    if (!s.selected.length && s.param === DEFAULTS.param && s.values === DEFAULTS.values) return undefined;
    return { param: s.param, values: s.values, schemes: s.selected } satisfies SharedSweep;
  },
  restore(value) {
    if (sweepLab.getState().running)
      return value === undefined ? undefined : 'a sweep is running, so its sweep settings were not applied';
    const sweep = value === undefined ? { param: DEFAULTS.param, values: DEFAULTS.values, schemes: [] } : parse(value);
    if (typeof sweep === 'string') return sweep;
    sweepLab.setParam(sweep.param, sweep.values);
    const picked = sweepLab.getState().selected;
    for (const id of picked) if (!sweep.schemes.includes(id)) sweepLab.toggle(id);
    for (const id of sweep.schemes) if (!sweepLab.getState().selected.includes(id)) sweepLab.toggle(id);
    return undefined;
  },
  subscribe: (onChange) => sweepLab.subscribe(onChange),
};
