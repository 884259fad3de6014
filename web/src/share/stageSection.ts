/**
 * What is on the stage, in a link (through the sections.ts extension point): `{main, side}`
 * view ids. A link from a newer or edited app may name a view this one does not have: it is
 * said, and the grid (or the stage without that side view) is shown instead.
 */
import { knownStage, stageView, STAGE_VIEWS } from '../store/stageViews';
import { DEFAULT_STAGE, type StageChoice } from '../store/state';
import type { SimStore } from '../store/store';
import type { ShareSection } from './sections';
import { quote } from './state';

const names = () => STAGE_VIEWS.map((v) => v.id).join(', ');

/** The stage a link's value asks for, and a note on what of it could not be shown. */
export function parseStage(value: unknown): { stage: StageChoice; note?: string } {
  if (value === undefined) return { stage: DEFAULT_STAGE };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return {
      stage: DEFAULT_STAGE,
      note: `its stage ${quote(value)} is not a JSON object, so the block grid is on the stage`,
    };
  const o = value as Record<string, unknown>;
  const main = typeof o.main === 'string' ? o.main : undefined;
  const side = typeof o.side === 'string' ? o.side : undefined;
  const stage = knownStage({ main: main ?? DEFAULT_STAGE.main, ...(side ? { side } : {}) });
  const bad: string[] = [];
  if (!main || !stageView(main))
    bad.push(`there is no view ${quote(o.main)} to put on the stage (views: ${names()}), so the block grid is there`);
  if (o.side !== undefined && (!side || !stageView(side)))
    bad.push(`there is no view ${quote(o.side)} to put beside it`);
  return { stage, ...(bad.length ? { note: bad.join('; ') } : {}) };
}

/** The stage's section over `store`. */
export function stageSection(store: SimStore): ShareSection {
  return {
    key: 'stage',
    capture() {
      const s = store.getState().stage;
      return s.main === DEFAULT_STAGE.main && !s.side
        ? undefined
        : { main: s.main, ...(s.side ? { side: s.side } : {}) };
    },
    restore(value) {
      const { stage, note } = parseStage(value);
      store.setStage(stage);
      return note;
    },
    // The store's changes already rewrite the link.
    subscribe: () => () => {},
  };
}
