import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { PathStep } from './path';

/** Steps shown around the current one (a 64-page request has hundreds). */
const WINDOW_BEFORE = 2;
const WINDOW_AFTER = 5;

interface Props {
  path: PathStep[];
  /** Index of the step the timeline stands on (-1 before the first). */
  current: number;
  /** Moves the timeline to just after step `i`. */
  go(i: number): void;
}

/**
 * The current request's path through RAM as a numbered list of steps: done, current (marked
 * `aria-current`) and still ahead. Each step is a button that moves the timeline there; with
 * focus inside, ← → go to the previous / next step and Home / End to the first / last.
 */
export function PathStrip({ path, current, go }: Props) {
  const listRef = useRef<HTMLOListElement>(null);
  const focusAfterMove = useRef(false);
  const from = Math.max(0, current - WINDOW_BEFORE);
  const to = Math.min(path.length, Math.max(current, 0) + WINDOW_AFTER + 1);

  useEffect(() => {
    if (!focusAfterMove.current) return;
    focusAfterMove.current = false;
    listRef.current?.querySelector<HTMLButtonElement>('[aria-current="step"]')?.focus();
  }, [current]);

  const onKey = (e: KeyboardEvent) => {
    const target = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: path.length - 1 }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    if (target < 0 || target >= path.length || target === current) return;
    focusAfterMove.current = true;
    go(target);
  };

  return (
    <ol
      className="cpath"
      ref={listRef}
      aria-label="Path of this request through RAM"
      data-own-arrows
      onKeyDown={onKey}
      data-testid="cache-path"
    >
      {from > 0 && <li className="cpath__more">… {from} earlier</li>}
      {path.slice(from, to).map((s, j) => {
        const i = from + j;
        const place = i < current ? 'done' : i === current ? 'current' : 'ahead';
        return (
          <li key={s.op}>
            <button
              type="button"
              className={`cpath__step cpath__step--${s.kind} is-${place}`}
              aria-current={i === current ? 'step' : undefined}
              tabIndex={i === Math.max(current, 0) ? 0 : -1}
              data-kind={s.kind}
              onClick={() => go(i)}
            >
              <span className="cpath__n">{i + 1}</span> {s.text}
            </button>
          </li>
        );
      })}
      {to < path.length && <li className="cpath__more">… {path.length - to} later</li>}
    </ol>
  );
}
