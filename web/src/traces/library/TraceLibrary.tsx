import { useState } from 'react';
import type { TraceParse } from '../../engine/protocol';
import { bytes, count } from '../format';
import type { TraceEntry } from '../manifest';
import { TraceStats } from '../TraceStats';
import type { LibraryEntry } from './index';
import type { Library } from './useLibrary';

/** An entry's statistics in the shape TraceStats shows (older entries may lack a report). */
function asParse(e: LibraryEntry): TraceParse {
  const report = e.report ?? {
    lines: 0,
    requests: e.stats.requests,
    ignored: 0,
    filtered: 0,
    skipped: 0,
    reordered: 0,
    errors: [],
    limit_reached: false,
  };
  return { name: e.name, format: e.format, report, summary: e.stats };
}

/** One uploaded trace: load, statistics, rename (Enter saves, Esc cancels), delete (confirmed). */
function Row({
  e,
  library,
  current,
  disabled,
  onLoad,
}: {
  e: LibraryEntry;
  library: Library;
  current: boolean;
  disabled: boolean;
  onLoad(e: LibraryEntry): void;
}) {
  const [editing, setEditing] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  // Statistics render only while open (their test ids would otherwise repeat the panel's).
  const [stats, setStats] = useState(false);
  const save = () => {
    if (editing != null && editing.trim()) void library.rename(e.hash, editing);
    setEditing(undefined);
  };
  return (
    <li
      className={`library__item${current ? ' library__item--current' : ''}`}
      data-testid="library-entry"
      data-hash={e.hash}
    >
      {editing == null ? (
        <span className="library__name">{e.name}</span>
      ) : (
        <label className="field">
          <span>New name</span>
          <input
            type="text"
            autoFocus
            value={editing}
            maxLength={200}
            onChange={(ev) => setEditing(ev.target.value)}
            onKeyDown={(ev) => {
              if (ev.key === 'Enter') save();
              if (ev.key === 'Escape') {
                ev.stopPropagation();
                setEditing(undefined);
              }
            }}
          />
        </label>
      )}
      <span className="library__meta">
        {e.format} · {count(e.stats.requests)} requests · {bytes(e.bytes)}
        {current && ' · loaded'}
      </span>
      {e.stored === 'session' && (
        <span className="library__session" role="note">
          This session only. {e.whyNotKept}
        </span>
      )}
      <div className="library__actions">
        {editing == null ? (
          <>
            <button type="button" disabled={disabled} onClick={() => onLoad(e)} aria-label={`Load ${e.name}`}>
              Load
            </button>
            <button type="button" onClick={() => setEditing(e.name)} aria-label={`Rename ${e.name}`}>
              Rename
            </button>
            {confirming ? (
              <>
                <button
                  type="button"
                  autoFocus
                  onClick={() => void library.remove(e.hash)}
                  aria-label={`Delete ${e.name} for good`}
                >
                  Delete for good
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${e.name}`}>
                Delete
              </button>
            )}
          </>
        ) : (
          <>
            <button type="button" onClick={save}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </>
        )}
      </div>
      <details onToggle={(ev) => setStats(ev.currentTarget.open)}>
        <summary>Statistics</summary>
        {stats && <TraceStats parse={asParse(e)} />}
      </details>
    </li>
  );
}

export interface TraceLibraryProps {
  library: Library;
  shipped: TraceEntry[];
  /** Hash of the loaded upload, or file of the loaded shipped trace. */
  current?: string;
  disabled: boolean;
  onLoad(e: LibraryEntry): void;
  onLoadShipped(file: string): void;
}

/** The trace library: this browser's uploads (kept across reloads) beside the shipped traces. */
export function TraceLibrary({ library, shipped, current, disabled, onLoad, onLoadShipped }: TraceLibraryProps) {
  return (
    <section className="library" aria-label="Trace library" data-testid="trace-library">
      <h3>Trace library</h3>
      {library.error && (
        <p role="alert" className="trace-panel__error">
          {library.error}
        </p>
      )}
      <h4>Your uploads</h4>
      {library.entries.length === 0 ? (
        <p className="trace-stats__note">None yet: an upload is kept here, in this browser only, once it loads.</p>
      ) : (
        <ul>
          {library.entries.map((e) => (
            <Row
              key={e.hash}
              e={e}
              library={library}
              current={current === e.hash}
              disabled={disabled}
              onLoad={onLoad}
            />
          ))}
        </ul>
      )}
      <h4>Shipped with the app</h4>
      <ul>
        {shipped.map((t) => (
          <li
            key={t.file}
            className={`library__item${current === t.file ? ' library__item--current' : ''}`}
            data-testid="library-shipped"
          >
            <span className="library__name" title={t.description}>
              {t.title}
            </span>
            <span className="library__meta">
              {t.format} · {count(t.requests)} requests{current === t.file && ' · loaded'}
            </span>
            <div className="library__actions">
              <button
                type="button"
                disabled={disabled}
                onClick={() => onLoadShipped(t.file)}
                aria-label={`Load ${t.title}`}
              >
                Load
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
