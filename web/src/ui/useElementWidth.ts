import { useEffect, useState, type RefObject } from 'react';

/**
 * The width (whole CSS pixels, at least `min`) of the element `ref` points at, kept current
 * with a ResizeObserver; `initial` until the first measurement. The charts and the tree size
 * their drawings with it.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, initial: number, min: number): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(min, Math.floor(e.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, min]);
  return width;
}
