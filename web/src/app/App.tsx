import { LessonBar } from '../lessons/LessonBar';
import { usePresenting } from '../lessons/useLesson';
import { SaturationNote } from '../lessons/SaturationNote';
import { WhatIsAnFtl } from '../lessons/WhatIsAnFtl';
import { BusyBar } from '../controls/BusyBar';
import { Announcer } from './Announcer';
import { Controls } from '../controls/Controls';
import { HelpOverlay } from '../controls/HelpOverlay';
import { Scrubber } from '../controls/Scrubber';
import { ShareBar } from '../share/ShareBar';
import { useSim, useStore } from '../store/useSim';
import { Narration } from '../views/Narration/Narration';
import { SIDE_PANELS, VIEWS } from './panels';
import { SideTabs } from './SideTabs';
import { OnStageNote, Stage } from './Stage';
import { onStage } from '../store/stageViews';
import { useMedia } from '../ui/useMedia';
import './App.css';

function Status() {
  const store = useStore();
  const status = useSim((s) => s.status);
  const message = useSim((s) => s.message);
  const notice = useSim((s) => s.notice);
  const traceError = useSim((s) => s.traceError);
  // A refused upload or configuration is said where the user is looking, until dismissed.
  if (traceError && status !== 'error') {
    return (
      <p className="status status--error" role="alert" data-testid="status-error">
        Not loaded: {/[.!?]$/.test(traceError) ? traceError : `${traceError}.`} The experiment before it is still
        loaded.{' '}
        <button type="button" className="status__dismiss" onClick={() => store.dismissError()}>
          Dismiss
        </button>
      </p>
    );
  }
  if (status === 'error') {
    return (
      <p className="status status--error" role="alert">
        {message}
      </p>
    );
  }
  const text =
    notice ??
    (status === 'loading'
      ? 'Loading trace…'
      : status === 'done'
        ? 'Trace finished.'
        : status === 'playing'
          ? 'Playing'
          : 'Ready — press Play or ? for keys');
  return (
    <p className="status" aria-live="polite" data-status={status}>
      {text}
    </p>
  );
}

function ExperimentSummary() {
  const info = useSim((s) => s.info);
  if (!info) return null;
  const scheme = info.schemes.find((s) => s.id === info.scheme);
  return (
    <p className="summary">
      <strong title={scheme?.name}>{info.scheme}</strong> scheme · trace <code>{info.traceName}</code> ·{' '}
      {info.blocks.toLocaleString('en-US')} blocks × {info.pagesPerBlock} pages
    </p>
  );
}

/** Wide screens (1920 px class) get three columns and the request inspector pinned. */
const WIDE = '(min-width: 1500px)';

/**
 * The main screen. Rows: header, timeline bar, workspace. Workspace columns: the stage
 * (the block grid over the response chart, or any other view, or two side by side:
 * Stage.tsx), the narration, and the side panels (tabs; a trace panel slots in through
 * panels.tsx). At projector size (1280 x 720) narration and side panels share one column.
 */
export function App() {
  const wide = useMedia(WIDE);
  const stage = useSim((s) => s.stage);
  const pinned = wide ? SIDE_PANELS.filter((p) => p.pinnedWhenWide) : [];
  const tabbed = SIDE_PANELS.filter((p) => !pinned.includes(p));
  // The presenter view keeps only the stage and the lesson's text (Lessons.css).
  const presenting = usePresenting();
  return (
    <div className={`app${wide ? ' app--wide' : ''}${presenting ? ' app--presenter' : ''}`}>
      <header className="app__header">
        <h1>
          FTL Lab <span>flash translation layers, step by step</span>
        </h1>
        <WhatIsAnFtl />
        <ExperimentSummary />
        <ShareBar />
      </header>
      <div className="app__bar">
        <Controls />
        <div className="app__bar2">
          <Scrubber />
          <BusyBar />
          <Status />
        </div>
      </div>
      <main className="app__main">
        <Stage views={VIEWS} />
        <div className="app__story panel">
          <SaturationNote />
          <LessonBar />
          <Narration />
        </div>
        <aside className="app__side" aria-label="Details">
          {pinned.map((p) => (
            <div key={p.id} className="panel">
              {onStage(stage, p.id) ? <OnStageNote id={p.id} /> : <p.Component />}
            </div>
          ))}
          <div className="panel app__tabs">
            <SideTabs panels={tabbed} label="Details" />
          </div>
        </aside>
      </main>
      <HelpOverlay />
      <Announcer />
    </div>
  );
}
