import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The width (whole CSS pixels, at least `min`) of the element `ref` points at, kept current
 * with a ResizeObserver; `initial` until the first measurement. The charts and the tree size
 * their drawings with it. The element may appear after the first render (a view that says
 * "loading" first): each render checks whether `ref` now points elsewhere.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, initial: number, min: number): number {
  const [width, setWidth] = useState(initial);
  const observed = useRef<{ el: HTMLElement; ro: ResizeObserver } | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (observed.current?.el === el) return;
    observed.current?.ro.disconnect();
    observed.current = null;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(min, Math.floor(e.contentRect.width))));
    ro.observe(el);
    observed.current = { el, ro };
  });
  useEffect(
    () => () => {
      observed.current?.ro.disconnect();
      observed.current = null;
    },
    [],
  );
  return width;
}
