// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { SimStore } from '../store/store';
import { SHORTCUTS, shortcutFor } from './keymap';

function press(key: string, target: HTMLElement) {
  const e = new KeyboardEvent('keydown', { key, bubbles: true });
  Object.defineProperty(e, 'target', { value: target });
  return shortcutFor(e);
}

function input(type: string): HTMLInputElement {
  const el = document.createElement('input');
  el.type = type;
  return el;
}

describe('shortcutFor on form controls', () => {
  it('leaves Space to a focused check box or radio button (it ticks, it does not play)', () => {
    expect(press(' ', input('checkbox'))).toBeUndefined();
    expect(press(' ', input('radio'))).toBeUndefined();
  });

  it('still gives Space to the timeline elsewhere, and arrows even from a check box', () => {
    expect(press(' ', document.body)).toBeDefined();
    expect(press('ArrowRight', input('checkbox'))).toBeDefined();
  });
});

describe('shortcutFor on the side tabs', () => {
  const tab = (selected: boolean) => {
    const b = document.createElement('button');
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(selected));
    return b;
  };

  it('plays on Space after a tab was clicked (the open tab keeps focus)', () => {
    expect(press(' ', tab(true))?.label).toBe('Play / pause');
  });

  it('leaves Space and Enter to a tab not open yet (they open it), and Enter to the open one', () => {
    expect(press(' ', tab(false))).toBeUndefined();
    expect(press('Enter', tab(false))).toBeUndefined();
    expect(press('Enter', tab(true))).toBeUndefined();
    expect(press(' ', document.createElement('button'))).toBeUndefined();
  });
});

describe('the stage keys', () => {
  /** A store stand-in that records the stage it is given. */
  function stageStore(stage: { main: string; side?: string }) {
    const set: unknown[] = [];
    const store = { getState: () => ({ stage }), setStage: (c: unknown) => set.push(c) } as unknown as SimStore;
    return { store, set };
  }
  const key = (init: KeyboardEventInit) => {
    const e = new KeyboardEvent('keydown', { bubbles: true, ...init });
    Object.defineProperty(e, 'target', { value: document.body });
    return shortcutFor(e);
  };

  it('puts a view alone on the stage with its digit, and beside the main view with Shift', () => {
    const { store, set } = stageStore({ main: 'grid' });
    key({ key: '2', code: 'Digit2' })!.run(store);
    key({ key: '!', code: 'Digit1', shiftKey: true })!.run(store);
    key({ key: '#', code: 'Digit3', shiftKey: true })!.run(store);
    expect(set).toEqual([{ main: 'tree' }, { main: 'grid' }, { main: 'grid', side: 'cache' }]);
  });

  it('binds no key twice: each key event finds one shortcut, and the digits were free', () => {
    const shown = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(shown).size).toBe(shown.length);
    // Shifted symbols bound elsewhere ('?', '+') stay theirs even where they sit on a digit.
    expect(key({ key: '?', code: 'Slash', shiftKey: true })?.label).toBe('Show this help');
    expect(key({ key: '+', code: 'Digit1' })?.label).toBe('Faster');
  });
});
