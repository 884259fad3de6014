/**
 * Every keyboard shortcut, in one table: the global key handler dispatches from it and the
 * help overlay ('?') lists it, so the two can never disagree. The jump entries come from the
 * engine's stop vocabulary (`vocabJson().stops`: label, key, doc), as do the jump buttons.
 */
import { STAGE_VIEWS, alone, beside, viewForKey } from '../store/stageViews';
import type { StopDef } from '../engine/protocol';
import type { SimStore } from '../store/store';

/** One shortcut. */
export interface Shortcut {
  /** Keys as shown in the help overlay. */
  keys: string[];
  /** What it does, as shown in the help overlay. */
  label: string;
  group: 'Timeline' | 'Jump' | 'View' | 'Stage';
  /** Whether a key event triggers it. */
  match(e: KeyboardEvent): boolean;
  run(store: SimStore): void;
}

const key =
  (...names: string[]) =>
  (e: KeyboardEvent) =>
    names.includes(e.key);
const shifted = (name: string, shift: boolean) => (e: KeyboardEvent) => e.key === name && e.shiftKey === shift;

/** Step sizes of PageUp/PageDown: a tenth of the trace, at least one request. */
const pageStep = (s: SimStore) => Math.max(1, Math.round((s.getState().info?.total ?? 10) / 10));

const BASE: Shortcut[] = [
  { keys: ['Space'], label: 'Play / pause', group: 'Timeline', match: key(' '), run: (s) => s.togglePlay() },
  {
    keys: ['→'],
    label: 'Step one request',
    group: 'Timeline',
    match: shifted('ArrowRight', false),
    run: (s) => void s.step(1),
  },
  {
    keys: ['←'],
    label: 'Step back one request',
    group: 'Timeline',
    match: shifted('ArrowLeft', false),
    run: (s) => void s.back(1),
  },
  {
    keys: ['.', 'Shift+→'],
    label: 'Step one flash operation',
    group: 'Timeline',
    match: (e) => e.key === '.' || shifted('ArrowRight', true)(e),
    run: (s) => void s.stepOp(1),
  },
  {
    keys: [',', 'Shift+←'],
    label: 'Step back one operation',
    group: 'Timeline',
    match: (e) => e.key === ',' || shifted('ArrowLeft', true)(e),
    run: (s) => void s.stepOp(-1),
  },
  { keys: ['Home'], label: 'Go to the start', group: 'Timeline', match: key('Home'), run: (s) => void s.seek(0) },
  {
    keys: ['End'],
    label: 'Go to the end of the trace',
    group: 'Timeline',
    match: key('End'),
    run: (s) => void s.seek(s.getState().info?.total ?? 0),
  },
  {
    keys: ['PageDown'],
    label: 'Forward a tenth of the trace',
    group: 'Timeline',
    match: key('PageDown'),
    run: (s) => void s.seek(s.getState().pos.request + pageStep(s)),
  },
  {
    keys: ['PageUp'],
    label: 'Back a tenth of the trace',
    group: 'Timeline',
    match: key('PageUp'),
    run: (s) => void s.seek(Math.max(0, s.getState().pos.request - pageStep(s))),
  },
  {
    keys: ['+'],
    label: 'Faster',
    group: 'Timeline',
    match: key('+', '='),
    run: (s) => s.setSpeed(s.getState().speed + 1),
  },
  {
    keys: ['-'],
    label: 'Slower',
    group: 'Timeline',
    match: key('-', '_'),
    run: (s) => s.setSpeed(s.getState().speed - 1),
  },
  {
    keys: ['R'],
    label: 'Reset (reload the experiment)',
    group: 'Timeline',
    match: key('r', 'R'),
    run: (s) => void s.reset(),
  },
  {
    keys: ['Esc'],
    label: 'Stop a long load or search / close this help',
    group: 'Jump',
    match: key('Escape'),
    run: (s) => (s.getState().help ? s.setHelp(false) : s.cancel()),
  },
  {
    keys: ['H'],
    label: 'Colour blocks by erase count / by role',
    group: 'View',
    match: key('h', 'H'),
    run: (s) => s.toggleHeat(),
  },
  {
    keys: ['/'],
    label: 'Filter the narration',
    group: 'View',
    match: key('/'),
    run: () => document.getElementById('narration-filter')?.focus(),
  },
  { keys: ['?'], label: 'Show this help', group: 'View', match: key('?'), run: (s) => s.setHelp(!s.getState().help) },
];

/**
 * A view's digit puts it alone on the stage. One help line stands for the ten digits;
 * shortcutFor gives the event's own view (`forKey`).
 */
const ALONE: Shortcut = {
  keys: ['1 … 0'],
  label: `That view on the stage: ${STAGE_VIEWS.flatMap((v) => (v.key ? [`${v.key} ${v.label}`] : [])).join(', ')}`,
  group: 'Stage',
  match: (e) => !!viewForKey(e.key),
  run: () => {},
};

/**
 * Shift + a view's digit puts it beside the view on the stage (again: takes it away). Matched
 * by the key's place (`code`), since Shift turns the digit into a symbol; a layout whose digits
 * need Shift gets the digit itself, which ALONE takes.
 */
const BESIDE: Shortcut = {
  keys: ['Shift+1 … 0'],
  label: 'That view beside the one on the stage (again: take it away)',
  group: 'Stage',
  match: (e) => e.shiftKey && /^Digit\d$/.test(e.code) && !/^\d$/.test(e.key),
  run: () => {},
};

/** `s` for key event `e`: the stage shortcuts act on the view of the digit pressed. */
function forKey(s: Shortcut, e: KeyboardEvent): Shortcut {
  if (s === ALONE) {
    const view = viewForKey(e.key);
    return { ...s, run: (store) => view && store.setStage(alone(view.id)) };
  }
  if (s === BESIDE) {
    const view = viewForKey(e.code.slice(-1));
    return { ...s, run: (store) => view && store.setStage(beside(store.getState().stage, view.id)) };
  }
  return s;
}

const STAGE: Shortcut[] = [ALONE, BESIDE];

/** The shortcut of an engine stop: its key (either case) runs the jump. */
export function stopShortcut(stop: StopDef): Shortcut {
  const k = stop.key.toLowerCase();
  return {
    keys: [k.toUpperCase()],
    label: `${stop.label}: ${stop.doc}`,
    group: 'Jump',
    match: key(k, k.toUpperCase()),
    run: (s) => void s.jump(stop.id),
  };
}

/** Every shortcut, with one jump per engine stop. */
export function shortcuts(stops: StopDef[]): Shortcut[] {
  return [
    ...BASE.filter((s) => s.group === 'Timeline'),
    ...stops.map(stopShortcut),
    ...BASE.filter((s) => s.group !== 'Timeline'),
    ...STAGE,
  ];
}

/** The shortcuts before the engine has said which stops exist. */
export const SHORTCUTS: Shortcut[] = shortcuts([]);

/** True when a key press belongs to a form field rather than to the timeline. */
export function typingInField(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  if (t.tagName === 'INPUT') return !['range', 'checkbox', 'radio', 'button'].includes((t as HTMLInputElement).type);
  // A select keeps its letters and ↑ ↓ (they pick options); ← → stay the timeline's.
  if (t.tagName === 'SELECT') return e.key !== 'ArrowLeft' && e.key !== 'ArrowRight';
  return t.tagName === 'TEXTAREA' || t.isContentEditable;
}

/** True when the focused widget moves its own cursor with the arrows (the block grid). */
function ownsArrows(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t?.closest?.('[data-own-arrows]') && e.key.startsWith('Arrow');
}

/** True when the key event's target is the tab already open (a selected `role="tab"`). */
function openTab(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return t?.getAttribute?.('role') === 'tab' && t.getAttribute('aria-selected') === 'true';
}

/** The shortcut for a key event, if any (none while typing or with Ctrl/Meta/Alt). */
export function shortcutFor(e: KeyboardEvent, list: Shortcut[] = SHORTCUTS): Shortcut | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  if (typingInField(e)) return e.key === 'Escape' ? list.find((s) => s.match(e)) : undefined;
  if (ownsArrows(e)) return undefined;
  // A focused button takes Space and Enter itself (native activation), except Space on the
  // open tab: clicking a side tab leaves it focused, and opening it again would do nothing,
  // so Space plays there as the status line says.
  if (
    (e.target as HTMLElement | null)?.tagName === 'BUTTON' &&
    (e.key === ' ' || e.key === 'Enter') &&
    !(e.key === ' ' && openTab(e))
  )
    return undefined;
  const t = e.target as HTMLInputElement | null;
  // A focused check box or radio button takes Space itself (it ticks; it must not play).
  if (t?.tagName === 'INPUT' && (t.type === 'checkbox' || t.type === 'radio') && e.key === ' ') return undefined;
  // On the scrubber, arrows and Home/End/PageUp/PageDown move it natively (same effect).
  if (t?.tagName === 'INPUT' && t.type === 'range' && /^(Arrow|Home|End|Page)/.test(e.key)) return undefined;
  const found = list.find((s) => s.match(e));
  return found && forKey(found, e);
}
