import { useState } from 'react';
import type { Experiment } from '../store/experiment';
import { useSim, useStore } from '../store/useSim';
import { getTrace, type LibraryEntry } from './library';
import { TraceLibrary } from './library/TraceLibrary';
import { useLibrary } from './library/useLibrary';
import type { TraceEntry } from './manifest';
import { ParserOptions } from './ParserOptions';
import type { ParseChoices } from '../engine/traceStream';
import { TraceStats } from './TraceStats';
import { UploadPreview } from './UploadPreview';
import { useManifest } from './useManifest';
import { useTeachingFix } from './useTeachingFix';
import { useUpload, withFileChoices } from './useUpload';
import './TracePanel.css';

/** The experiment for a shipped trace, keeping the scheme (teaching traces bring a device). */
function shippedExperiment(t: TraceEntry, scheme: string): Experiment {
  return { traceUrl: `traces/${t.file}`, traceName: t.file, config: { scheme, ...t.config } };
}

/**
 * Choose the experiment: a shipped trace or an upload (file picker or drop), parser options,
 * and the scheme. Shows the trace's statistics, and why a trace could not be read.
 */
export function TracePanel() {
  const store = useStore();
  const { manifest, error: manifestError } = useManifest();
  const experiment = useSim((s) => s.experiment);
  const info = useSim((s) => s.info);
  const trace = useSim((s) => s.trace);
  const traceError = useSim((s) => s.traceError);
  const status = useSim((s) => s.status);
  const refused = useSim((s) => s.refused);
  // The panel unmounts with its tab: start from the options the loaded experiment used.
  const [choices, setChoices] = useState<ParseChoices>(() => store.getState().parseChoices);
  const [dragging, setDragging] = useState(false);
  const library = useLibrary();
  const scheme = experiment.config.scheme;
  // Every load this panel starts uses the options as edited here, not the store's last ones
  // (else changing the scheme would silently drop an option just typed in). Format and units
  // belong to a file: a new trace starts from its own (shipped: detected; upload: previewed).
  const loadWith = (e: Experiment, c: ParseChoices) => {
    setChoices(c);
    return store.load(e, c);
  };
  const upload = useUpload({ store, choices, scheme, loadWith, refreshLibrary: library.refresh });
  const teachingFix = useTeachingFix(store, refused, manifest);
  const libValue = (hash?: string) => (hash && library.entries.some((e) => e.hash === hash) ? `lib:${hash}` : '');
  // After a refused load the selectors show what was asked, beside the reason.
  const shownScheme = refused?.config.scheme ?? scheme;
  const shownTrace =
    refused && !refused.file
      ? refused.traceName
      : experiment.file
        ? libValue(experiment.traceHash)
        : experiment.traceName;
  const loading = status === 'loading';

  const loadEntry = async (entry: LibraryEntry) => {
    const t = await getTrace(entry.hash);
    if (!t) {
      upload.setNote(`${entry.name} is no longer in the library.`);
      return void library.refresh();
    }
    upload.setNote(undefined);
    // With the options it was committed with, so it reads as its statistics say.
    void loadWith(
      { traceUrl: '', traceName: t.entry.name, file: t.file, traceHash: entry.hash, config: { scheme } },
      t.entry.choices,
    );
  };
  const pickShipped = (file: string) => {
    const t = manifest?.traces.find((x) => x.file === file);
    if (t) void loadWith(shippedExperiment(t, scheme), withFileChoices(choices, {}));
  };
  const pickTrace = (value: string) => {
    const entry = value.startsWith('lib:') ? library.entries.find((e) => `lib:${e.hash}` === value) : undefined;
    if (entry) void loadEntry(entry);
    else pickShipped(value);
  };

  return (
    <section className="trace-panel" aria-label="Experiment">
      <label className="field">
        <span>Trace</span>
        <select value={shownTrace} onChange={(e) => pickTrace(e.target.value)} disabled={loading}>
          {experiment.file && !libValue(experiment.traceHash) && (
            <option value="">{experiment.traceName} (uploaded)</option>
          )}
          {library.entries.length > 0 && (
            <optgroup label="Your traces (this browser)">
              {library.entries.map((e) => (
                <option key={e.hash} value={`lib:${e.hash}`}>
                  {e.name}
                </option>
              ))}
            </optgroup>
          )}
          {(['real', 'teaching'] as const).map((kind) => (
            <optgroup key={kind} label={kind === 'real' ? 'Real traces' : 'Teaching traces (tiny device)'}>
              {manifest?.traces
                .filter((t) => t.kind === kind)
                .map((t) => (
                  <option key={t.file} value={t.file} title={t.description}>
                    {t.title}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      {manifestError && (
        <p role="alert" className="trace-panel__error">
          {manifestError}
        </p>
      )}

      {upload.pending && (
        <UploadPreview
          key={upload.pending.seq}
          file={upload.pending.file}
          client={store.client}
          formats={info?.formats ?? []}
          choices={choices}
          onCommit={(over) => void upload.commit(over)}
          onCancel={upload.cancel}
        />
      )}
      {upload.note && (
        <p role="status" className="trace-panel__note" data-testid="library-note">
          {upload.note}
        </p>
      )}
      <div
        className={`drop${dragging ? ' drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const f = e.dataTransfer.files[0];
          if (f) upload.pick(f);
        }}
      >
        <label className="drop__pick">
          Upload a trace
          <input
            ref={upload.pickerRef}
            type="file"
            data-testid="trace-upload"
            disabled={loading}
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) upload.pick(f);
              e.target.value = '';
            }}
          />
        </label>
        <span>or drop a file here · stays in your browser</span>
      </div>

      <ParserOptions
        choices={choices}
        onChange={setChoices}
        formats={info?.formats ?? []}
        disabled={loading}
        onReload={() => void store.load(experiment, choices)}
      />

      <label className="field">
        <span>Scheme</span>
        <select
          value={shownScheme}
          disabled={loading || !info}
          onChange={(e) => void store.switchScheme(e.target.value, choices)}
        >
          {info?.schemes.map((s) => (
            <option key={s.id} value={s.id} title={s.source}>
              {s.id} — {s.name}
            </option>
          ))}
        </select>
      </label>

      {traceError && (
        <p role="alert" className="trace-panel__error" data-testid="trace-error">
          {traceError}
        </p>
      )}
      {traceError && teachingFix && (
        <p className="trace-panel__fix">
          <button type="button" onClick={() => void loadWith(teachingFix.experiment, choices)}>
            Run {String(teachingFix.experiment.config.scheme)} on the teaching device ({teachingFix.device})
          </button>{' '}
          the teaching README uses for it.
        </p>
      )}
      {trace && <TraceStats parse={trace} />}
      <TraceLibrary
        library={library}
        shipped={manifest?.traces ?? []}
        current={experiment.file ? experiment.traceHash : experiment.traceName}
        disabled={loading}
        onLoad={(e) => void loadEntry(e)}
        onLoadShipped={pickShipped}
      />
    </section>
  );
}
