/**
 * The Sweep mode in shared links (issue 15: "the comparison lab's experiments and sweeps
 * too"): while the Compare tab shows it, a link carries its parameter, values and schemes
 * under `sections.sweep`, and opening the link shows the form filled in, ready to run. The
 * results are not carried (as for side-by-side runs): they are one Run away.
 */
import type { ShareSection } from '../../share/sections';
import type { SweepLab } from './sweepLab';

/** What a link holds of the sweep. */
interface SharedSweep {
  param: string;
  values: string;
  schemes: string[];
}

const MAX_TEXT = 256;

const isText = (v: unknown, pattern: RegExp): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT && pattern.test(v);

export function sweepShareSection(lab: SweepLab): ShareSection {
  return {
    key: 'sweep',
    capture(): SharedSweep | undefined {
      const s = lab.getState();
      return s.shown ? { param: s.param, values: s.values, schemes: s.selected } : undefined;
    },
    restore(value: unknown): string | undefined {
      const v = value as Partial<SharedSweep> | null;
      const ok =
        !!v &&
        typeof v === 'object' &&
        // A dotted configuration key or a short name; values are the engine's to judge on Run.
        isText(v.param, /^[A-Za-z0-9_.-]+$/) &&
        // eslint-disable-next-line no-control-regex
        isText(v.values, /^[^\u0000-\u001f\u007f]+$/) &&
        Array.isArray(v.schemes) &&
        v.schemes.length <= 32 &&
        v.schemes.every((x) => isText(x, /^[a-z0-9_-]+$/));
      if (!ok) return 'its sweep is not one this FTL Lab can read; the Sweep form is left as it was';
      if (lab.getState().running) return 'a sweep is running here, so its sweep form was not filled in';
      lab.setForm({ param: v.param!, values: v.values!, selected: [...new Set(v.schemes!)] });
      return undefined;
    },
    subscribe: (fn) => lab.subscribe(fn),
  };
}
