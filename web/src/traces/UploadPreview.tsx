import { useEffect, useRef, useState } from 'react';
import type { LocatedError, TracePreview } from '../engine/protocol';
import { bytes, duration } from './format';
import { FormatField, TimeUnitField, unitWords } from './parserFields';
import { previewSample, readSample, type Sample } from './preview';
import type { ParseChoices, TraceClient } from '../engine/traceStream';

/** The per-file options the preview can override (the rest stay the panel's). */
export type FileChoices = Pick<ParseChoices, 'format' | 'timeUnit' | 'sectorSize'>;

/** A located error as the engine prints it (file:line:column: expected …, found '…'). */
export function locate(name: string, e: LocatedError): string {
  const at = e.line > 0 ? `${name}:${e.line}:${e.column}` : name;
  return `${at}: expected ${e.expected}, found '${e.found}'`;
}

/** What one previewed line becomes, in words. */
function readAs(l: TracePreview['lines'][number], name: string): string {
  switch (l.kind) {
    case 'request': {
      const r = l.request!;
      const dev = r.device ? ` · device ${r.device}` : '';
      return `${r.op} ${bytes(r.size)} at byte ${r.offset.toLocaleString('en-US')} · t${r.at_ns < 0 ? '−' : '+'}${duration(Math.abs(r.at_ns))}${dev}`;
    }
    case 'header':
      return 'header line';
    case 'comment':
      return 'blank or comment';
    case 'ignored':
      return 'no request (ignored by this format)';
    case 'error':
      return locate(name, l.error!);
    default:
      return 'not read';
  }
}

export interface UploadPreviewProps {
  file: File;
  client: TraceClient;
  /** Formats the engine parses. */
  formats: string[];
  /** The panel's options (skip bad lines, filters) the preview reads with. */
  choices: ParseChoices;
  onCommit(overrides: FileChoices): void;
  onCancel(): void;
}

/**
 * Before an upload is loaded: its first lines as the engine reads them, the detected format
 * and what each field means, and a format / time unit / sector size override. Everything from
 * the file is shown as React text, never as HTML. Esc cancels.
 */
export function UploadPreview({ file, client, formats, choices, onCommit, onCancel }: UploadPreviewProps) {
  const [sample, setSample] = useState<Sample>();
  const [over, setOver] = useState<FileChoices>({
    format: choices.format,
    timeUnit: choices.timeUnit,
    sectorSize: choices.sectorSize,
  });
  const [preview, setPreview] = useState<TracePreview>();
  const [failure, setFailure] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    let alive = true;
    readSample(file, file.name)
      .then((s) => alive && setSample(s))
      .catch((e: unknown) => alive && setFailure(e instanceof Error ? e.message : String(e)));
    return () => {
      alive = false;
    };
  }, [file]);
  useEffect(() => {
    if (!sample) return;
    let alive = true;
    previewSample(client, sample, { ...choices, ...over })
      .then((p) => {
        if (!alive) return;
        setPreview(p);
        setFailure(undefined);
      })
      .catch((e: unknown) => alive && setFailure(e instanceof Error ? e.message : String(e)));
    return () => {
      alive = false;
    };
  }, [sample, client, choices, over]);

  const detected = preview?.detected ? preview.format : undefined;
  return (
    <section
      className="upload-preview"
      aria-label="Upload preview"
      data-testid="upload-preview"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3 ref={heading} tabIndex={-1}>
        Preview: {file.name} ({bytes(file.size)})
      </h3>
      {failure && (
        <p role="alert" className="trace-panel__error">
          {failure}
        </p>
      )}
      {!preview && !failure && <p role="status">Reading the first lines…</p>}
      {preview && (
        <>
          <p data-testid="preview-format" role="status">
            {preview.format
              ? `${preview.detected ? 'Detected format' : 'Format (chosen)'}: ${preview.format} — ${preview.layout}`
              : 'Format not recognised.'}
          </p>
          {preview.error && (
            <p role="alert" className="trace-panel__error" data-testid="preview-error">
              {locate(file.name, preview.error)}
            </p>
          )}
          <div className="trace-panel__row">
            <FormatField
              label="Format of this file"
              value={over.format}
              formats={formats}
              emptyWords={`detect${detected ? ` (${detected})` : ''}`}
              onChange={(format) => setOver({ ...over, format })}
            />
            <TimeUnitField
              label="Time unit"
              value={over.timeUnit}
              emptyWords={`format's own${preview.default_time_unit ? ` (${unitWords(preview.default_time_unit)})` : ''}`}
              onChange={(timeUnit) => setOver({ ...over, timeUnit })}
            />
            {preview.sector_size != null && (
              <label className="field">
                <span>Sector size (bytes)</span>
                <input
                  type="number"
                  min={1}
                  step={1}
                  placeholder="512"
                  value={over.sectorSize ?? ''}
                  onChange={(e) =>
                    setOver({ ...over, sectorSize: e.target.value === '' ? undefined : Number(e.target.value) })
                  }
                />
              </label>
            )}
          </div>
          {preview.fields.length > 0 && (
            <dl className="upload-preview__fields" aria-label="Fields">
              {preview.fields.map((f) => (
                <div key={f.name}>
                  <dt>{f.name}</dt>
                  <dd>{f.meaning}</dd>
                </div>
              ))}
            </dl>
          )}
          {preview.format && (
            <p className="trace-stats__note">
              Times in {unitWords(preview.time_unit)}
              {preview.sector_size != null && `; sectors of ${preview.sector_size} bytes`}.
            </p>
          )}
          <div className="upload-preview__lines" role="region" aria-label="First lines" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Text</th>
                  <th scope="col">Read as</th>
                </tr>
              </thead>
              <tbody>
                {preview.lines.map((l) => (
                  <tr key={l.line} className={`upload-preview__${l.kind}`} data-kind={l.kind}>
                    <td>{l.line}</td>
                    <td>
                      <code>{l.text}</code>
                    </td>
                    <td>{readAs(l, file.name)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="upload-preview__actions">
        {/* The preview runs the load's own checks: what it refuses, the load would refuse. */}
        <button type="button" disabled={!preview || !!preview.error} onClick={() => onCommit(over)}>
          Load this trace
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
