import { Controls } from '../controls/Controls';
import { Progress } from '../controls/Progress';
import { useSim } from '../store/useSim';
import { BlockGrid } from '../views/BlockGrid/BlockGrid';
import { Counters } from '../views/Counters/Counters';
import './App.css';

function Status() {
  const status = useSim((s) => s.status);
  const message = useSim((s) => s.message);
  if (status === 'error') {
    return (
      <p className="status status--error" role="alert">
        {message}
      </p>
    );
  }
  return (
    <p className="status" aria-live="polite" data-status={status}>
      {status === 'loading' ? 'Loading trace…' : status === 'done' ? 'Trace finished.' : status === 'playing' ? 'Playing' : 'Ready — press Play'}
    </p>
  );
}

function ExperimentSummary() {
  const info = useSim((s) => s.info);
  if (!info) return null;
  return (
    <p className="summary">
      <strong>{info.scheme}</strong> scheme · trace <code>{info.traceName}</code> · {info.blocks} blocks ×{' '}
      {info.pagesPerBlock} pages
    </p>
  );
}

export function App() {
  return (
    <div className="app">
      <header className="app__header">
        <h1>
          FTL Lab <span>flash translation layers, step by step</span>
        </h1>
        <ExperimentSummary />
      </header>
      <div className="app__bar">
        <Controls />
        <Progress />
        <Status />
      </div>
      <main className="app__main">
        <BlockGrid />
        <aside className="app__side">
          <Counters />
        </aside>
      </main>
    </div>
  );
}
