import { useEffect, useRef, useState } from 'react';
import type { Experiment } from '../store/experiment';
import { useSim, useStore } from '../store/useSim';
import { contentHash } from './contentHash';
import { getTrace, type LibraryEntry, putTrace } from './library';
import { TraceLibrary } from './library/TraceLibrary';
import { useLibrary } from './library/useLibrary';
import type { TraceEntry } from './manifest';
import type { ParseChoices } from '../engine/traceStream';
import { deviceWords, onTeachingDevice } from './teachingDevice';
import { TraceStats } from './TraceStats';
import { type FileChoices, TIME_UNITS, UploadPreview } from './UploadPreview';
import { useManifest } from './useManifest';
import './TracePanel.css';

/** A labelled number input; empty = undefined. */
function NumberField(p: { label: string; value?: number; placeholder?: string; onChange: (v: number | undefined) => void }) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <input
        type="number"
        min={0}
        step="any"
        placeholder={p.placeholder ?? 'any'}
        value={p.value ?? ''}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </label>
  );
}

/** The experiment for a shipped trace, keeping the scheme (teaching traces bring a device). */
function shippedExperiment(t: TraceEntry, scheme: string): Experiment {
  return { traceUrl: `traces/${t.file}`, traceName: t.file, config: { scheme, ...t.config } };
}

/** `choices` with the per-file options (format, time unit, sector size) replaced by `file`'s. */
function withFileChoices(choices: ParseChoices, file: FileChoices): ParseChoices {
  const { format: _f, timeUnit: _t, sectorSize: _s, ...rest } = choices;
  const out: ParseChoices = { ...rest };
  if (file.format) out.format = file.format;
  if (file.timeUnit) out.timeUnit = file.timeUnit;
  if (file.sectorSize != null) out.sectorSize = file.sectorSize;
  return out;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

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
  // An upload being previewed, its content hash computed meanwhile.
  // Picking another file meanwhile replaces it (`seq` gives that preview a fresh state).
  const [pending, setPending] = useState<{ file: File; hash: Promise<string>; seq: number }>();
  // What became of the last upload: kept in the library, or why not.
  const [note, setNote] = useState<string>();
  // Esc in the preview hides it with the focus in it: give the focus back to the upload button.
  const uploadRef = useRef<HTMLInputElement>(null);
  const [cancelled, setCancelled] = useState(0);
  useEffect(() => {
    if (cancelled) uploadRef.current?.focus();
  }, [cancelled]);
  // A scheme refused on a teaching trace's tiny device: offer the teaching preset's device.
  const [teachingFix, setTeachingFix] = useState<{ experiment: Experiment; device: string }>();
  useEffect(() => {
    setTeachingFix(undefined);
    if (!refused || !manifest) return;
    let alive = true;
    store.catalog().then(
      (c) => {
        const fix = onTeachingDevice(refused, manifest.traces, c.presets);
        if (alive && fix) setTeachingFix({ experiment: fix, device: deviceWords(fix.config.device as Record<string, unknown>) });
      },
      () => {}, // no offer without the presets; the refusal still shows
    );
    return () => {
      alive = false;
    };
  }, [refused, manifest, store]);
  const scheme = experiment.config.scheme;
  const libValue = (hash?: string) => (hash && library.entries.some((e) => e.hash === hash) ? `lib:${hash}` : '');
  // After a refused load the selectors show what was asked, beside the reason.
  const shownScheme = refused?.config.scheme ?? scheme;
  const shownTrace = refused && !refused.file ? refused.traceName : experiment.file ? libValue(experiment.traceHash) : experiment.traceName;
  const loading = status === 'loading';

  // Every load this panel starts uses the options as edited here, not the store's last ones
  // (else changing the scheme would silently drop an option just typed in). Format and units
  // belong to a file: a new trace starts from its own (shipped: detected; upload: previewed).
  const loadWith = (e: Experiment, c: ParseChoices) => {
    setChoices(c);
    return store.load(e, c);
  };
  const load = (e: Experiment) => void store.load(e, choices);
  const loadFile = (file: File) => {
    const hash = contentHash(file);
    hash.catch(() => {}); // reported when the upload is committed
    setNote(undefined);
    setPending((p) => ({ file, hash, seq: (p?.seq ?? 0) + 1 }));
  };
  const commit = async (over: FileChoices) => {
    if (!pending) return;
    const { file } = pending;
    setPending(undefined);
    const c = withFileChoices(choices, over);
    // Hashing began when the preview opened; a big file may still be at it.
    setNote('Reading the file to name it in the library…');
    const hash = await pending.hash.catch(() => undefined);
    setNote(undefined);
    const e: Experiment = { traceUrl: '', traceName: file.name, file, traceHash: hash, config: { scheme } };
    await loadWith(e, c);
    const s = store.getState();
    if (s.experiment !== e || !s.trace) return; // refused, or replaced by a newer load
    try {
      if (!hash) await pending.hash; // throws the reason there is no hash
      const r = await putTrace(file, file.name, { format: s.trace.format, stats: s.trace.summary, report: s.trace.report, choices: c }, hash);
      if (r.entry.stored === 'session') setNote(r.entry.whyNotKept);
      else setNote(r.existed ? `Already in the library as “${r.entry.name}”.` : `Kept in the library as “${r.entry.name}”.`);
    } catch (err) {
      setNote(`Not kept in the library: ${message(err)}. It stays usable until you close or reload the page.`);
    }
    await library.refresh();
  };
  const loadEntry = async (entry: LibraryEntry) => {
    const t = await getTrace(entry.hash);
    if (!t) {
      setNote(`${entry.name} is no longer in the library.`);
      return void library.refresh();
    }
    setNote(undefined);
    // With the options it was committed with, so it reads as its statistics say.
    void loadWith({ traceUrl: '', traceName: t.entry.name, file: t.file, traceHash: entry.hash, config: { scheme } }, t.entry.choices);
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
          {experiment.file && !libValue(experiment.traceHash) && <option value="">{experiment.traceName} (uploaded)</option>}
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
      {manifestError && <p role="alert" className="trace-panel__error">{manifestError}</p>}

      {pending && (
        <UploadPreview
          key={pending.seq}
          file={pending.file}
          client={store.client}
          formats={info?.formats ?? []}
          choices={choices}
          onCommit={(over) => void commit(over)}
          onCancel={() => {
            setPending(undefined);
            setCancelled((n) => n + 1);
          }}
        />
      )}
      {note && (
        <p role="status" className="trace-panel__note" data-testid="library-note">
          {note}
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
          if (f) loadFile(f);
        }}
      >
        <label className="drop__pick">
          Upload a trace
          <input
            ref={uploadRef}
            type="file"
            data-testid="trace-upload"
            disabled={loading}
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) loadFile(f);
              e.target.value = '';
            }}
          />
        </label>
        <span>or drop a file here · stays in your browser</span>
      </div>

      <details className="trace-panel__options">
        <summary>Parser options</summary>
        <label className="field">
          <span>Format</span>
          <select value={choices.format ?? ''} onChange={(e) => setChoices({ ...choices, format: e.target.value || undefined })}>
            <option value="">detect automatically</option>
            {info?.formats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={!!choices.skipBadLines} onChange={(e) => setChoices({ ...choices, skipBadLines: e.target.checked })} />
          Skip malformed lines (and count them)
        </label>
        <NumberField label="First requests only" value={choices.maxRequests} placeholder="all" onChange={(v) => setChoices({ ...choices, maxRequests: v })} />
        <label className="field">
          <span>Device / volume / ASU</span>
          <input
            type="text"
            placeholder="all"
            value={choices.device ?? ''}
            onChange={(e) => setChoices({ ...choices, device: e.target.value || undefined })}
          />
        </label>
        <label className="field">
          <span>Requests</span>
          <select
            value={choices.only ?? ''}
            onChange={(e) => setChoices({ ...choices, only: (e.target.value || undefined) as ParseChoices['only'] })}
          >
            <option value="">reads, writes and trims</option>
            <option value="reads">reads only</option>
            <option value="writes">writes only</option>
          </select>
        </label>
        <label className="field">
          <span>blkparse events</span>
          <select
            value={choices.blkparseEvent ?? 'D'}
            onChange={(e) => setChoices({ ...choices, blkparseEvent: e.target.value === 'Q' ? 'Q' : undefined })}
          >
            <option value="D">D — dispatched to the device (default)</option>
            <option value="Q">Q — queued, as the application issued them</option>
          </select>
        </label>
        <div className="trace-panel__row">
          <label className="field">
            <span>Time unit</span>
            <select value={choices.timeUnit ?? ''} onChange={(e) => setChoices({ ...choices, timeUnit: e.target.value || undefined })}>
              <option value="">the format's own</option>
              {TIME_UNITS.map(([k, words]) => (
                <option key={k} value={k}>
                  {words}
                </option>
              ))}
            </select>
          </label>
          <NumberField label="Sector size (bytes)" value={choices.sectorSize} placeholder="512" onChange={(v) => setChoices({ ...choices, sectorSize: v })} />
        </div>
        <div className="trace-panel__row">
          <NumberField label="From (s)" value={choices.fromS} onChange={(v) => setChoices({ ...choices, fromS: v })} />
          <NumberField label="Until (s)" value={choices.untilS} onChange={(v) => setChoices({ ...choices, untilS: v })} />
          <NumberField label="Time scale" value={choices.timeScale} placeholder="1" onChange={(v) => setChoices({ ...choices, timeScale: v })} />
        </div>
        <button type="button" disabled={loading} onClick={() => load(experiment)}>
          Reload with these options
        </button>
      </details>

      <label className="field">
        <span>Scheme</span>
        <select value={shownScheme} disabled={loading || !info} onChange={(e) => void store.switchScheme(e.target.value, choices)}>
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
