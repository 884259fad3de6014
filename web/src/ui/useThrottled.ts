import { useEffect, useRef, useState } from 'react';

/**
 * `value`, but while `enabled` changing at most every `ms` (the latest value wins). Views
 * that are costly to render (the narration log) use it so full-speed play does not spend
 * every frame re-rendering text nobody can read that fast.
 */
export function useThrottled<T>(value: T, ms: number, enabled: boolean): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  const latest = useRef(value);
  latest.current = value;

  useEffect(() => {
    if (!enabled) {
      setShown(value);
      return;
    }
    // Always through a timer, even when due now: the costly re-render then runs as a task
    // of its own instead of inside the frame update that changed `value` (at full speed
    // on the paper's device the two together went over the 50 ms frame budget).
    const wait = Math.max(0, last.current + ms - performance.now());
    const t = setTimeout(() => {
      last.current = performance.now();
      setShown(latest.current);
    }, wait);
    return () => clearTimeout(t);
  }, [value, ms, enabled]);

  return enabled ? shown : value;
}
