import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RequestTrace } from '../../engine/events';
import { cacheVocabulary, describeRequest, formatNs, type LineKind, type Vocabulary } from '../../narration/narrate';
import { useSim, useStore } from '../../store/useSim';
import { Terms } from '../../ui/Terms';
import { useThrottled } from '../../ui/useThrottled';
import { filterLines, groupsAround, linesOf, type LogFilter } from './lines';
import './Narration.css';

/** Lines shown per request before "show all". */
const LINES_SHOWN = 24;
/** While playing fast the log re-renders at most this often (ms). */
const PLAYING_REFRESH_MS = 250;
/**
 * While playing, only the requests nearest the position are rendered (nobody reads faster):
 * each refresh replaces them all, and laying out hundreds of new lines cost the paper's
 * device over 100 ms a refresh (the 50 ms frame budget).
 */
const PLAYING_GROUPS = 8;
/**
 * Out of play the whole log is rendered, but grown by this many requests on each side of the
 * position per frame: rendering and laying out all of its 150 requests at once took one task
 * of 120+ ms when play paused on the paper's device (the 50 ms frame budget), and 12
 * a side still made frames of up to 50 ms there.
 */
const GROW_GROUPS = 6;
/**
 * Requests a side the first render after a pause shows: the pause lands the same frame as the
 * other views' catch-up (tree, RAM split, chart), so it starts lighter than play's 8.
 */
const PAUSED_FIRST_GROUPS = 3;

const KINDS: { value: LineKind | 'all'; label: string }[] = [
  { value: 'all', label: 'All operations' },
  { value: 'data', label: 'Data' },
  { value: 'mapping', label: 'Mapping (cache, translation)' },
  { value: 'gc', label: 'Garbage collection' },
  { value: 'merge', label: 'Merges' },
];

interface GroupProps {
  trace: RequestTrace;
  ppb: number;
  vocab: Vocabulary;
  filter: LogFilter;
  /** 'past' | 'current' | 'ahead' of the timeline position. */
  place: 'past' | 'current' | 'ahead';
  /** Op index just applied, when this is the request in progress (else -1). */
  activeOp: number;
  onJump: (request: number, op: number) => void;
}

/** One request: a header and its operations, each clickable. */
const Group = memo(function Group({ trace, ppb, vocab, filter, place, activeOp, onJump }: GroupProps) {
  const [all, setAll] = useState(false);
  const header = describeRequest(trace.request);
  const lines = filterLines(linesOf(trace, ppb, vocab), header, filter);
  if (lines.length === 0 && (filter.kind !== 'all' || filter.text)) return null;
  const flash = trace.ops.reduce((a, e) => a + ('ns' in e ? e.ns : 0), 0);
  const shown = all ? lines : lines.slice(0, LINES_SHOWN);
  // The request being read explains each abbreviation once, where it first appears.
  const seen = place === 'current' ? new Set<string>() : undefined;
  const told = (text: string) => (seen ? <Terms text={text} seen={seen} /> : text);
  return (
    <li className={`ngroup ngroup--${place}`} data-request={trace.index}>
      <button
        type="button"
        tabIndex={-1}
        className="ngroup__head"
        onClick={() => onJump(trace.index + 1, 0)}
        title="Show the device after this request"
      >
        <span className="ngroup__id">#{trace.index.toLocaleString('en-US')}</span> {told(header)}
        <span className="ncost">{flash > 0 ? `flash ${formatNs(flash)}` : 'no flash work'}</span>
      </button>
      {lines.length === 0 && <p className="nline nline--none">No flash or cache operations.</p>}
      <ol className="ngroup__lines">
        {shown.map((l) => {
          const active = activeOp >= l.first && activeOp <= l.last;
          // Part-way through a request, its operations still to come are dimmed.
          const ahead = activeOp >= 0 && l.first > activeOp;
          return (
            <li key={l.first}>
              <button
                type="button"
                tabIndex={-1}
                className={`nline nline--${l.kind}${active ? ' nline--active' : ''}${ahead ? ' nline--ahead' : ''}`}
                aria-current={active ? 'step' : undefined}
                data-kind={l.kind}
                onClick={() => onJump(trace.index, l.last + 1)}
              >
                <span className="nline__text">{told(l.text.replace(/ — [\d,.]+ (µs|ms)$/, ''))}</span>
                {l.ns > 0 && <span className="ncost">{formatNs(l.ns)}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      {lines.length > shown.length && (
        <button type="button" tabIndex={-1} className="ngroup__more" onClick={() => setAll(true)}>
          Show {lines.length - shown.length} more operations
        </button>
      )}
    </li>
  );
});

/**
 * ↑ / ↓ inside the log: the list is one tab stop (its lines are not), so Tab passes it in
 * one press; the arrows walk its buttons, starting at the line on screen.
 */
function moveFocus(e: KeyboardEvent, list: HTMLElement | null) {
  if (!list || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
  const items = [...list.querySelectorAll<HTMLElement>('button')];
  if (items.length === 0) return;
  e.preventDefault();
  const i = items.indexOf(document.activeElement as HTMLElement);
  const next =
    i < 0
      ? Math.max(
          0,
          items.findIndex((b) => b.classList.contains('nline--active')),
        )
      : i + (e.key === 'ArrowDown' ? 1 : -1);
  items[Math.max(0, Math.min(items.length - 1, next))].focus();
}

/** Scrolls `list` (and nothing around it) so that `el` is centred or just in view. */
function scrollWithin(list: HTMLElement, el: HTMLElement, block: 'center' | 'nearest') {
  const top = el.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  const h = el.offsetHeight;
  if (block === 'center') list.scrollTop = top - (list.clientHeight - h) / 2;
  else if (top < list.scrollTop) list.scrollTop = top;
  else if (top + h > list.scrollTop + list.clientHeight) list.scrollTop = top + h - list.clientHeight;
}

/**
 * The narration log: every operation the timeline has passed through, in plain words with
 * its cost, grouped per request, filterable, each line a link back to that moment.
 */
export function Narration() {
  const store = useStore();
  const playing = useSim((s) => s.status === 'playing');
  const log = useThrottled(
    useSim((s) => s.log),
    PLAYING_REFRESH_MS,
    playing,
  );
  const pos = useThrottled(
    useSim((s) => s.pos),
    PLAYING_REFRESH_MS,
    playing,
  );
  const info = useSim((s) => s.info);
  const [filter, setFilter] = useState<LogFilter>({ kind: 'all', text: '' });
  const listRef = useRef<HTMLOListElement>(null);
  const vocab = useMemo(
    () => ({ ...cacheVocabulary(info?.spec, info?.vocab.page_kinds), partialGc: info?.responseBoundUs != null }),
    [info],
  );
  const ppb = info?.pagesPerBlock ?? 1;
  const currentIndex = pos.op > 0 ? pos.request : pos.request - 1;
  // Requests rendered on each side of the position out of play (grows to the whole log).
  const [reach, setReach] = useState(PAUSED_FIRST_GROUPS);
  useEffect(() => {
    if (playing) return setReach(PAUSED_FIRST_GROUPS);
    if (reach >= log.length) return;
    // One step a frame: the next after this frame is painted (a timer queued from the
    // animation frame), so that steps never pile up into one layout.
    let t = 0;
    const raf = requestAnimationFrame(() => {
      t = window.setTimeout(() => setReach((r) => r + GROW_GROUPS), 0);
    });
    return () => {
      cancelAnimationFrame(raf);
      clearTimeout(t);
    };
  }, [playing, reach, log.length]);

  // Keep the moment on screen in view by scrolling the list only: scrollIntoView would also
  // scroll the page (on a small screen, hiding the Play / Step controls at every step).
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const scroll = () => {
      const active = list.querySelector<HTMLElement>('.nline--active');
      // The operation on screen sits mid-list, with what led to it above and what follows below.
      if (active) scrollWithin(list, active, 'center');
      else {
        const group = list.querySelector<HTMLElement>(`[data-request="${currentIndex}"]`);
        if (group) scrollWithin(list, group, 'nearest');
      }
    };
    // Measuring here would force a layout in the middle of the frame's updates (the grid
    // and the tree still change the page after this), so the page was laid out twice a
    // refresh (36 ms forced on the paper's device when play paused): the scroll waits for
    // the next animation frame instead, which still comes before the frame is painted.
    const raf = requestAnimationFrame(scroll);
    return () => cancelAnimationFrame(raf);
  }, [currentIndex, pos.op, log, playing, reach]);

  const onJump = useMemo(() => (request: number, op: number) => void store.seek(request, op), [store]);
  const shown = useMemo(
    () =>
      !playing
        ? groupsAround(log, currentIndex, reach, reach)
        : log.length <= PLAYING_GROUPS
          ? log
          : groupsAround(log, currentIndex, PLAYING_GROUPS, 0),
    [log, playing, currentIndex, reach],
  );

  return (
    <section className="narration" aria-label="Narration">
      <div className="panel-head">
        <h2>Narration</h2>
        <select
          aria-label="Show operations"
          value={filter.kind}
          onChange={(e) => setFilter({ ...filter, kind: e.target.value as LogFilter['kind'] })}
        >
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
        <input
          id="narration-filter"
          type="search"
          placeholder="Filter (e.g. LPN 637)"
          aria-label="Filter narration"
          aria-keyshortcuts="/"
          value={filter.text}
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
        />
      </div>
      {log.length === 0 ? (
        <p className="narration__empty">
          Step (→) or play (Space) and every flash operation is told here, with its cost.
        </p>
      ) : (
        <ol
          className="narration__list"
          ref={listRef}
          data-testid="narration"
          tabIndex={0}
          aria-label="Narration log: ↑ ↓ move between lines, Enter goes there"
          onKeyDown={(e) => moveFocus(e, listRef.current)}
        >
          {shown.map((t) => (
            <Group
              key={t.index}
              trace={t}
              ppb={ppb}
              vocab={vocab}
              filter={filter}
              place={t.index < currentIndex ? 'past' : t.index === currentIndex ? 'current' : 'ahead'}
              activeOp={t.index === currentIndex && pos.op > 0 ? pos.op - 1 : -1}
              onJump={onJump}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
