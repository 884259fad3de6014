// @vitest-environment jsdom
// The settings panel over the real engine's catalog and checks: refusals read as sentences
// beside their field, and Apply stays off while any field shows an alert.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { SimStore } from '../../store/store';
import { StoreContext } from '../../store/useSim';
import { engineClient } from '../../test/engineClient';
import { fakeInfo } from '../../test/fakeClient';
import { SettingsPanel } from './SettingsPanel';
import { mountPoint } from '../../test/dom';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const dom = mountPoint();

const wait = (ms: number) => act(() => new Promise<void>((r) => setTimeout(r, ms)));

async function mount() {
  const store = new SimStore(engineClient());
  store['set']({ status: 'ready', info: fakeInfo(10) });
  act(() =>
    dom.root.render(
      <StoreContext.Provider value={store}>
        <SettingsPanel />
      </StoreContext.Provider>,
    ),
  );
  for (let i = 0; i < 50 && !dom.host.querySelector('[data-path="device.blocks"]'); i++) await wait(10);
}

const input = (path: string) =>
  dom.host.querySelector<HTMLInputElement | HTMLSelectElement>(
    `[data-path="${path}"] input, [data-path="${path}"] select`,
  )!;
const alertOf = (path: string) => dom.host.querySelector(`[data-path="${path}"] [role="alert"]`)?.textContent;
const apply = () => [...dom.host.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Apply'))!;

/** Changes a controlled input or select the way a user does, then lets the engine check it. */
async function change(el: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
  await wait(250);
}

describe('SettingsPanel', () => {
  it('keeps Apply off while a field shows its own alert, even after a preset changes others', async () => {
    await mount();
    await change(input('seed'), 'x');
    expect(alertOf('seed')).toContain('is not a number');
    const preset = [...dom.host.querySelectorAll('select')].find((s) =>
      s.querySelector('option')?.textContent?.startsWith("choose a source's device"),
    )!;
    await change(preset, 'teaching');
    expect(apply().disabled).toBe(true);
    await change(input('seed'), '7');
    expect(alertOf('seed')).toBeUndefined();
    expect(apply().disabled).toBe(false);
  });

  it('says in words what a field takes, naming it', async () => {
    await mount();
    await change(input('device.blocks'), '-5');
    expect(alertOf('device.blocks')).toBe('device.blocks must be a whole number from 0 to 4,294,967,295, not -5');
    expect(apply().disabled).toBe(true);
  });

  it('refuses a device the browser cannot hold beside Blocks, with how much it needs and what fits', async () => {
    await mount();
    await change(input('device.pages_per_block'), '64');
    await change(input('device.blocks'), '2097151');
    expect(alertOf('device.blocks')).toMatch(
      /^a device of 2,097,151 blocks x 64 pages \(134,217,664 pages\) needs about [\d.]+ GiB .* lower device\.blocks to [\d,]+ or fewer/,
    );
    expect(apply().disabled).toBe(true);
  });
});
