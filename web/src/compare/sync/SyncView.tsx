import { useEffect, useMemo, useRef, useState } from 'react';
import { cacheVocabulary, describeRequest, narrate } from '../../narration/narrate';
import type { SimStore } from '../../store/store';
import { StoreContext, useSim, useStore } from '../../store/useSim';
import { BlockGrid } from '../../views/BlockGrid/BlockGrid';
import { CachePanel } from '../../views/Cache/CachePanel';
import { lookupText, lookups } from './lookups';
import { SyncPair } from './pair';
import { PairPlayer } from './player';
import './Sync.css';

/** Schemes the view opens with: the teacher's "watch DFTL miss where TreeFTL hits". */
const DEFAULT_SCHEMES: [string, string] = ['dftl', 'treeftl'];

/** One side's request on screen: its narration lines and its mapping hits and misses. */
function SideLine({ label }: { label: string }) {
  const current = useSim((s) => s.current);
  const pos = useSim((s) => s.pos);
  const info = useSim((s) => s.info);
  const lines = useMemo(() => {
    if (!current || !info) return [];
    return narrate(current, info.pagesPerBlock, cacheVocabulary(info.spec, info.vocab.page_kinds));
  }, [current, info]);
  const l = lookups(current);
  return (
    <div
      className="sync__line"
      data-testid="sync-line"
      data-request={pos.request}
      data-hits={l.hits}
      data-misses={l.misses}
      aria-label={`${label}: current request`}
    >
      <p>
        <strong>{current ? `#${current.index} ${describeRequest(current.request)}` : 'No request served yet'}</strong>
        {current && <> · {lookupText(l)}</>}
      </p>
      <ol className="sync__narration">
        {lines.map((x, i) => (
          <li key={i}>{x.text}</li>
        ))}
      </ol>
    </div>
  );
}

/** One side: its scheme, block grid, narration line and RAM structures. */
function Side({ store, index }: { store: SimStore; index: number }) {
  return (
    <StoreContext.Provider value={store}>
      <SideBody index={index} />
    </StoreContext.Provider>
  );
}

function SideBody({ index }: { index: number }) {
  const name = useSim((s) => s.info?.spec.name ?? s.info?.scheme ?? '…');
  const scheme = useSim((s) => s.info?.scheme ?? '');
  const status = useSim((s) => s.status);
  const message = useSim((s) => s.message);
  return (
    <section
      className="sync__side"
      data-testid="sync-side"
      data-scheme={scheme}
      aria-label={`Side ${index + 1}: ${name}`}
    >
      <h4>{name}</h4>
      {status === 'error' && <p role="alert">{message}</p>}
      <div className="sync__grid">
        <BlockGrid probeId={`sync-${index}`} />
      </div>
      <SideLine label={name} />
      <details className="sync__cache">
        <summary>RAM / cache</summary>
        <CachePanel />
      </details>
    </section>
  );
}

/**
 * Synchronised playback: the loaded trace and device under two schemes, side by
 * side, stepped together by one set of controls; each side shows its block grid, its
 * narration of the request on screen and its RAM structures.
 */
export function SyncView() {
  const main = useStore();
  const experiment = useSim((s) => s.experiment);
  const schemes = useSim((s) => s.info?.schemes ?? []);
  const pairRef = useRef<SyncPair | null>(null);
  pairRef.current ??= new SyncPair(main.client);
  const pair = pairRef.current;
  const [chosen, setChosen] = useState<[string, string]>(DEFAULT_SCHEMES);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [request, setRequest] = useState(0);

  const [playing, setPlaying] = useState(false);
  const playerRef = useRef<PairPlayer | null>(null);
  playerRef.current ??= new PairPlayer(async () => {
    await run(() => pair.step(1));
    return pair.live && pair.request < pair.total;
  }, setPlaying);
  const player = playerRef.current;

  useEffect(() => () => player.stop(), [player]);
  useEffect(() => () => void pair.drop(), [pair]);
  // Both sides report their position; the scrubber follows the first.
  useEffect(() => pair.sides[0].subscribe(() => setRequest(pair.request)), [pair]);

  // One move of the pair at a time; a press meanwhile is dropped. The buttons stay enabled
  // while busy: disabling the focused one would drop focus, and the arrows with it.
  const busyRef = useRef(false);
  const run = async (work: () => Promise<unknown>) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      busyRef.current = false;
      setBusy(false);
      setRequest(pair.request);
    }
  };
  const load = () =>
    run(async () => {
      player.stop();
      await pair.load(experiment, chosen);
      setLoaded(pair.live);
    });
  const can = loaded;
  const total = loaded ? pair.total : 0;
  const [open, setOpen] = useState(false);
  const stageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) stageRef.current?.focus();
  }, [open]);
  const showRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    player.stop();
    setOpen(false);
    // Back to where the stage was opened from (its Show button), not to <body>.
    requestAnimationFrame(() => showRef.current?.focus());
  };
  const onKey = (e: React.KeyboardEvent) => {
    // The stage lies over the app: its keys must not reach the app's shortcuts (window), which
    // would play or seek the main experiment hidden behind it (Space, Home, End, R, jumps).
    if (e.key !== '?') e.stopPropagation();
    // A modal dialog: Tab and Shift+Tab cycle inside it, never onto controls hidden under it.
    if (e.key === 'Tab' && stageRef.current) {
      const focusable = [
        ...stageRef.current.querySelectorAll<HTMLElement>('button, input, select, [tabindex]:not([tabindex="-1"])'),
      ].filter((el) => !el.hasAttribute('disabled'));
      const [first, last] = [focusable[0], focusable[focusable.length - 1]];
      const at = document.activeElement;
      if (first && e.shiftKey && (at === first || at === stageRef.current)) {
        e.preventDefault();
        last.focus();
      } else if (last && !e.shiftKey && at === last) {
        e.preventDefault();
        first.focus();
      }
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return;
    }
    // A side's block grid walks its pages with the arrows, the scrubber moves itself.
    if (e.defaultPrevented || (e.target as HTMLElement).tagName === 'INPUT') return;
    // A focused button takes Space itself (it presses the button).
    if (e.key === ' ' && (e.target as HTMLElement).tagName === 'BUTTON') return;
    // The stage owns the arrows (data-own-arrows) and Space: they move both sides, not the
    // app's timeline. A move by hand stops playing.
    if (e.key === ' ' && can) player.toggle();
    else if (e.key === 'ArrowRight' && can && request < total) (player.stop(), void run(() => pair.step(1)));
    else if (e.key === 'ArrowLeft' && can && request > 0) (player.stop(), void run(() => pair.back(1)));
    else return;
    e.preventDefault();
  };

  return (
    <div className="sync" data-testid="sync-view">
      <p className="sync__intro">
        The trace and device on screen under two schemes, side by side, stepped together: the same request on both sides
        (say, DFTL missing where TreeFTL hits).
      </p>
      <div className="sync__controls" role="group" aria-label="Schemes to compare">
        {[0, 1].map((i) => (
          <label key={i}>
            Scheme {i + 1}{' '}
            <select
              value={chosen[i]}
              onChange={(e) => setChosen((c) => (i === 0 ? [e.target.value, c[1]] : [c[0], e.target.value]))}
              data-testid={`sync-scheme-${i}`}
            >
              {schemes.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.id}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button
          type="button"
          onClick={() => void load().then(() => setOpen(true))}
          disabled={busy}
          data-testid="sync-load"
        >
          {loaded ? 'Reload both' : 'Load both'}
        </button>
        {loaded && !open && (
          <button type="button" ref={showRef} onClick={() => setOpen(true)}>
            Show
          </button>
        )}
      </div>
      {loaded && open && (
        <div
          ref={stageRef}
          className="sync__stage"
          role="dialog"
          aria-modal="true"
          aria-label="Synchronised playback"
          data-own-arrows=""
          tabIndex={-1}
          onKeyDown={onKey}
          data-testid="sync-stage"
        >
          <div className="sync__controls" role="toolbar" aria-label="Synchronised timeline">
            <strong>{chosen.join(' vs ')}</strong>
            <button
              type="button"
              onClick={() => (player.stop(), void run(() => pair.back(1)))}
              disabled={!can || request === 0}
              aria-keyshortcuts="ArrowLeft"
            >
              ◀ Back both
            </button>
            <button
              type="button"
              className="sync__play"
              onClick={() => player.toggle()}
              disabled={!can || (!playing && request >= total)}
              aria-keyshortcuts="Space"
              aria-pressed={playing}
              title="Play both, two requests a second (Space)"
              data-testid="sync-play"
            >
              {playing ? '❚❚ Pause both' : '▶ Play both'}
            </button>
            <button
              type="button"
              onClick={() => (player.stop(), void run(() => pair.step(1)))}
              disabled={!can || request >= total}
              aria-keyshortcuts="ArrowRight"
              data-testid="sync-step"
            >
              Step both ▶
            </button>
            <input
              type="range"
              min={0}
              max={total}
              value={request}
              disabled={!can}
              aria-label="Request (both sides)"
              onChange={(e) => (player.stop(), void run(() => pair.seek(Number(e.target.value))))}
            />
            <output data-testid="sync-position">{`request ${request.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}</output>
            <button type="button" onClick={close} aria-keyshortcuts="Escape">
              Close
            </button>
          </div>
          <div className="sync__sides">
            <Side store={pair.sides[0]} index={0} />
            <Side store={pair.sides[1]} index={1} />
          </div>
        </div>
      )}
    </div>
  );
}
