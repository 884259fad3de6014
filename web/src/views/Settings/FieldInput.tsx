import { useEffect, useState } from 'react';
import { firstSentence, getAt, parseInput, type Field } from './schemaForm';

interface Props {
  field: Field;
  config: Record<string, unknown>;
  /** The engine's (or the input's) message about this field, shown beside it. */
  error?: string;
  onChange(path: string, value: unknown): void;
  /** Told when the field's own check (a value that is not a number…) starts or stops failing. */
  onInvalid?(path: string, message: string | undefined): void;
}

/** A fresh value for a data-carrying variant at `path`: a number, or an object of zeros. */
function variantValue(path: string, fields: Field[]): unknown {
  if (fields.length === 1 && fields[0].path === path) return 0;
  return Object.fromEntries(fields.map((x) => [x.path.slice(path.length + 1), 0]));
}

const id = (path: string) => `setting-${path.replace(/\./g, '-')}`;

/** One config field: a checkbox, a select (with a variant's own fields) or a text input. */
export function FieldInput({ field: f, config, error, onChange, onInvalid }: Props) {
  const value = getAt(config, f.path);
  const [text, setText] = useState(value === undefined || value === null ? '' : String(value));
  const [local, setLocalState] = useState<string>();
  // The panel keeps Apply off while any field shows its own alert.
  const setLocal = (message: string | undefined) => {
    setLocalState(message);
    onInvalid?.(f.path, message);
  };
  // A preset or variant replaced the value: show it.
  useEffect(() => setText(value === undefined || value === null ? '' : String(value)), [value]);
  // A field that goes away takes its alert with it.
  useEffect(() => () => onInvalid?.(f.path, undefined), [f.path, onInvalid]);
  const message = local ?? error;
  const describedBy = message ? `${id(f.path)}-error` : undefined;
  const label = (
    <span className="settings__label" title={f.doc}>
      {f.label}
      {f.units && <span className="settings__units"> ({f.units})</span>}
    </span>
  );
  let input;
  if (f.kind === 'boolean') {
    input = (
      <input
        id={id(f.path)}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(f.path, e.target.checked)}
        aria-describedby={describedBy}
      />
    );
  } else if (f.kind === 'choice') {
    // A tagged variant carrying data is an object `{variant: {...}}`; a plain one a string.
    const chosen = value && typeof value === 'object' ? Object.keys(value)[0] : String(value ?? '');
    const choice = f.choices!.find((c) => c.value === chosen);
    input = (
      <>
        <select
          id={id(f.path)}
          value={chosen}
          aria-describedby={describedBy}
          onChange={(e) => {
            const c = f.choices!.find((x) => x.value === e.target.value)!;
            onChange(f.path, c.fields ? { [c.value]: variantValue(`${f.path}.${c.value}`, c.fields) } : c.value);
          }}
        >
          {f.choices!.map((c) => (
            <option key={c.value} value={c.value} title={c.doc}>
              {c.value}
            </option>
          ))}
        </select>
        {choice?.fields?.map((sub) => (
          <FieldInput key={sub.path} field={sub} config={config} onChange={onChange} onInvalid={onInvalid} />
        ))}
      </>
    );
  } else {
    input = (
      <input
        id={id(f.path)}
        type="text"
        inputMode={f.kind === 'text' ? 'text' : 'decimal'}
        value={text}
        aria-invalid={!!message}
        aria-describedby={describedBy}
        onChange={(e) => {
          setText(e.target.value);
          const r = parseInput(f, e.target.value);
          if ('error' in r) return setLocal(r.error);
          setLocal(undefined);
          onChange(f.path, r.value);
        }}
      />
    );
  }
  return (
    <div className={`settings__field${message ? ' is-invalid' : ''}`} data-path={f.path}>
      <label htmlFor={id(f.path)}>{label}</label>
      {input}
      {f.doc && <small className="settings__doc">{firstSentence(f.doc)}</small>}
      {message && (
        <small id={`${id(f.path)}-error`} className="settings__error" role="alert">
          {message}
        </small>
      )}
    </div>
  );
}
