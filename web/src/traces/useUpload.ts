import { useEffect, useRef, useState } from 'react';
import type { Experiment } from '../store/experiment';
import type { SimStore } from '../store/store';
import { contentHash } from './contentHash';
import { putTrace } from './library';
import type { ParseChoices } from '../engine/traceStream';
import type { FileChoices } from './UploadPreview';

/** An upload being previewed, its content hash computed meanwhile (`seq`: a fresh preview per pick). */
export interface PendingUpload {
  file: File;
  hash: Promise<string>;
  seq: number;
}

/** `choices` with the per-file options (format, time unit, sector size) replaced by `file`'s. */
export function withFileChoices(choices: ParseChoices, file: FileChoices): ParseChoices {
  const { format: _f, timeUnit: _t, sectorSize: _s, ...rest } = choices;
  const out: ParseChoices = { ...rest };
  if (file.format) out.format = file.format;
  if (file.timeUnit) out.timeUnit = file.timeUnit;
  if (file.sectorSize != null) out.sectorSize = file.sectorSize;
  return out;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What the upload hook needs from the panel. */
export interface UploadHost {
  store: SimStore;
  /** The panel's parser options (a committed upload overrides the per-file ones). */
  choices: ParseChoices;
  scheme: string;
  /** Loads an experiment with options, making them the panel's. */
  loadWith(e: Experiment, c: ParseChoices): Promise<void>;
  /** The library changed. */
  refreshLibrary(): Promise<void>;
}

/**
 * An upload from pick to library: the file picked (or dropped) is previewed; committing it
 * loads it with the preview's per-file options and keeps it in the trace library; `note` says
 * what became of it. Cancelling gives the focus back to the file picker (`pickerRef`).
 */
export function useUpload({ store, choices, scheme, loadWith, refreshLibrary }: UploadHost) {
  const [pending, setPending] = useState<PendingUpload>();
  const [note, setNote] = useState<string>();
  const pickerRef = useRef<HTMLInputElement>(null);
  const [cancelled, setCancelled] = useState(0);
  useEffect(() => {
    if (cancelled) pickerRef.current?.focus();
  }, [cancelled]);

  const pick = (file: File) => {
    const hash = contentHash(file);
    hash.catch(() => {}); // reported when the upload is committed
    setNote(undefined);
    setPending((p) => ({ file, hash, seq: (p?.seq ?? 0) + 1 }));
  };
  const cancel = () => {
    setPending(undefined);
    setCancelled((n) => n + 1);
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
      const r = await putTrace(
        file,
        file.name,
        { format: s.trace.format, stats: s.trace.summary, report: s.trace.report, choices: c },
        hash,
      );
      if (r.entry.stored === 'session') setNote(r.entry.whyNotKept);
      else
        setNote(
          r.existed ? `Already in the library as “${r.entry.name}”.` : `Kept in the library as “${r.entry.name}”.`,
        );
    } catch (err) {
      setNote(`Not kept in the library: ${message(err)}. It stays usable until you close or reload the page.`);
    }
    await refreshLibrary();
  };
  return { pending, note, setNote, pickerRef, pick, cancel, commit };
}
