// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { shortcutFor } from './keymap';

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
