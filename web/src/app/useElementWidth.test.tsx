// @vitest-environment jsdom
import { act, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useElementWidth } from './useElementWidth';

// jsdom has no layout: a stand-in ResizeObserver the test drives by hand.
type Callback = (entries: { contentRect: { width: number } }[]) => void;
const observers: { cb: Callback; el: Element | null; live: boolean }[] = [];
class FakeResizeObserver {
  private o: { cb: Callback; el: Element | null; live: boolean };
  constructor(cb: Callback) {
    this.o = { cb, el: null, live: true };
    observers.push(this.o);
  }
  observe(el: Element) {
    this.o.el = el;
  }
  disconnect() {
    this.o.live = false;
  }
}
(globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = FakeResizeObserver;
(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Probe() {
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref, 400, 260);
  return <div ref={ref} data-width={width} />;
}

/** Renders its measured element only once `ready` (a view that first says "loading"). */
function Late({ ready }: { ready: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref, 400, 260);
  return ready ? <div ref={ref} data-width={width} /> : <p>loading</p>;
}

afterEach(() => {
  observers.length = 0;
});

describe('useElementWidth', () => {
  it('starts at the initial width, follows resizes in whole pixels, never below the minimum, and stops observing on unmount', () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    act(() => root.render(<Probe />));
    const probe = () => Number(host.firstElementChild!.getAttribute('data-width'));
    expect(probe()).toBe(400);
    expect(observers).toHaveLength(1);
    expect(observers[0].el).toBe(host.firstElementChild);
    act(() => observers[0].cb([{ contentRect: { width: 512.7 } }]));
    expect(probe()).toBe(512);
    act(() => observers[0].cb([{ contentRect: { width: 100 } }]));
    expect(probe()).toBe(260);
    act(() => root.unmount());
    expect(observers[0].live).toBe(false);
  });

  it('measures an element that appears after the first render', () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    act(() => root.render(<Late ready={false} />));
    expect(observers).toHaveLength(0);
    act(() => root.render(<Late ready />));
    expect(observers).toHaveLength(1);
    expect(observers[0].el).toBe(host.firstElementChild);
    act(() => observers[0].cb([{ contentRect: { width: 800 } }]));
    expect(Number(host.firstElementChild!.getAttribute('data-width'))).toBe(800);
    act(() => root.unmount());
    expect(observers[0].live).toBe(false);
  });
});
