import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Catalog, Validation } from '../../engine/protocol';
import { useSim, useStore } from '../../store/useSim';
import { FieldInput } from './FieldInput';
import { blocksForFootprint } from './footprint';
import { withPresetTiming } from './presetTiming';
import { formFromSchema, getAt, optionFields, setAt, type Field, type Group } from './schemaForm';
import './Settings.css';

/** Config fields the panel does not show: chosen above it, or not a user's choice. */
const SKIP = ['scheme', 'options', 'record_events'];
/** Edits are checked by the engine this long after the last keystroke (ms). */
const VALIDATE_AFTER_MS = 150;

type Config = Record<string, unknown>;

/** Every default filled in under what the experiment sets (so each field shows a value). */
function merged(defaults: Config, over: Config): Config {
  const out: Config = { ...defaults };
  for (const [k, v] of Object.entries(over)) {
    const d = defaults[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && d && typeof d === 'object'
        ? merged(d as Config, v as Config)
        : v;
  }
  return out;
}

/** `config` with every option of its scheme shown: the spec's defaults under what it sets. */
function withOptions(config: Config, catalog: Catalog): Config {
  const spec = catalog.schemes.find((s) => s.id === config.scheme);
  const own = config.options && typeof config.options === 'object' ? (config.options as Config) : {};
  return { ...config, options: { ...(spec?.default_options ?? {}), ...own } };
}

/** The draft an experiment's config starts the panel with. */
function draftOf(catalog: Catalog, config: Config): Config {
  return withOptions(merged(catalog.defaultConfig, config), catalog);
}

/**
 * The experiment's settings, generated from the engine's config schema and the chosen
 * scheme's spec (options, their docs, named variants): no code here knows a field or a
 * scheme. Every edit is checked by the engine; a refused value shows the engine's message
 * beside the field and Apply stays off, so the running experiment keeps working.
 */
export function SettingsPanel() {
  const store = useStore();
  const experiment = useSim((s) => s.experiment);
  // Each load brings new facts: the form starts again from what was loaded, even when it
  // is the same experiment (a Reset after a refused or failed Apply).
  const loaded = useSim((s) => s.info);
  const trace = useSim((s) => s.trace);
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [failed, setFailed] = useState<string>();
  const [draft, setDraft] = useState<Config | null>(null);
  const [verdict, setVerdict] = useState<Validation>({ ok: true });
  /** Alerts of the fields' own checks (text that is not a number…), by path: Apply waits for none. */
  const [alerts, setAlerts] = useState<Record<string, string>>({});
  const onInvalid = useCallback((path: string, message: string | undefined) => {
    setAlerts((a) => {
      if (a[path] === message) return a;
      const { [path]: _, ...rest } = a;
      return message === undefined ? rest : { ...rest, [path]: message };
    });
  }, []);
  /** Remounts the fields (clearing their text and alerts) when the draft starts again. */
  const [generation, setGeneration] = useState(0);
  const restart = useCallback((c: Catalog, config: Config) => {
    setDraft(draftOf(c, config));
    setGeneration((g) => g + 1);
  }, []);

  useEffect(() => {
    store.catalog().then(setCatalog, (e: Error) => setFailed(e.message));
  }, [store]);
  // The loaded experiment changed (Apply, a trace or scheme chosen elsewhere): start from it.
  useEffect(() => {
    if (catalog) restart(catalog, experiment.config as Config);
  }, [catalog, experiment, loaded, restart]);
  useEffect(() => {
    if (!draft) return;
    const t = setTimeout(
      () => void store.validate(draft).then(setVerdict, (e: Error) => setVerdict({ ok: false, message: e.message })),
      VALIDATE_AFTER_MS,
    );
    return () => clearTimeout(t);
  }, [draft, store]);

  const form = useMemo(() => (catalog ? formFromSchema(catalog.configSchema, SKIP) : null), [catalog]);
  if (failed) return <p className="settings">The engine cannot describe its settings: {failed}</p>;
  if (!catalog || !draft || !form) return <p className="settings">Loading settings…</p>;

  const scheme = String(draft.scheme);
  const spec = catalog.schemes.find((s) => s.id === scheme);
  const options = spec ? optionFields(spec.option_docs, spec.default_options) : [];
  const set = (path: string, value: unknown) => setDraft((d) => setAt(d!, path, value));
  const errorFor = (path: string) => (!verdict.ok && verdict.field === path ? verdict.message : undefined);
  const unplaced =
    !verdict.ok && !(verdict.field && document.querySelector(`[data-path="${verdict.field}"]`))
      ? verdict.message
      : undefined;
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(catalog, experiment.config as Config));

  const fieldAlert = Object.keys(alerts).length > 0;
  const fields = (fs: Field[]) =>
    fs.map((f) => (
      <FieldInput
        key={`${generation}:${f.path}`}
        field={f}
        config={draft}
        error={errorFor(f.path)}
        onChange={set}
        onInvalid={onInvalid}
      />
    ));
  const group = (g: Group) => (
    <fieldset key={g.path} className="settings__group">
      <legend title={g.doc}>{g.label}</legend>
      {fields(g.fields)}
      {g.groups.map(group)}
    </fieldset>
  );

  const device = draft.device as {
    page_bytes: number;
    pages_per_block: number;
    blocks: number;
    over_provisioning: number;
  };
  const reserve = Number(getAt(draft, 'gc.reserve_blocks') ?? 4);
  const fit = trace ? blocksForFootprint(trace.summary.footprint_bytes, device, reserve) : null;

  return (
    <form
      className="settings"
      aria-label="Experiment settings"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (verdict.ok && !fieldAlert) void store.load({ ...experiment, config: draft as typeof experiment.config });
      }}
    >
      <div className="settings__row">
        <label>
          Preset{' '}
          <select
            value=""
            onChange={(e) => {
              const p = catalog.presets.find((x) => x.name === e.target.value);
              // The preset's arrivals too, where it has them; a timing set after this wins.
              if (p)
                setDraft((d) => withPresetTiming(setAt(setAt(d!, 'device', p.device), 'ram.bytes', p.ram_bytes), p));
            }}
          >
            <option value="">choose a source's device…</option>
            {catalog.presets.map((p) => (
              <option key={p.name} value={p.name} title={`${p.source}. ${p.notes}`}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Scheme{' '}
          <select
            value={scheme}
            onChange={(e) => setDraft((d) => withOptions({ ...d!, scheme: e.target.value, options: {} }, catalog))}
          >
            {catalog.schemes.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {trace && fit !== null && fit !== device.blocks && (
        <p className="settings__fit">
          The trace touches{' '}
          {(trace.summary.footprint_bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB.{' '}
          <button type="button" onClick={() => set('device.blocks', fit)}>
            Size the device to it ({fit.toLocaleString('en-US')} blocks)
          </button>
        </p>
      )}
      <div className="settings__fields">
        {spec && (options.length > 0 || spec.variants.length > 0) && (
          <fieldset className="settings__group" data-testid="scheme-options">
            <legend>{spec.name} options</legend>
            {spec.variants.length > 0 && (
              <label className="settings__field">
                <span className="settings__label">Named variant</span>
                <select
                  value=""
                  onChange={(e) =>
                    set('options', {
                      ...spec.default_options,
                      ...(spec.variants.find((v) => v.name === e.target.value)?.options ?? {}),
                    })
                  }
                >
                  <option value="">choose…</option>
                  {spec.variants.map((v) => (
                    <option key={v.name} value={v.name}>
                      {v.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {fields(options)}
          </fieldset>
        )}
        {fields(form.fields)}
        {form.groups.map(group)}
      </div>
      {/* Stays in view at the bottom of the panel: the refusal and the buttons are never below the fold. */}
      <div className="settings__row settings__actions" data-testid="settings-actions">
        {unplaced && (
          <p className="settings__error" role="alert">
            {unplaced}
          </p>
        )}
        {!unplaced && !verdict.ok && (
          <p className="settings__error" data-testid="settings-refusal">
            Refused: {verdict.message}
          </p>
        )}
        {fieldAlert && <p className="settings__error">{Object.values(alerts)[0]}</p>}
        <button type="submit" disabled={!verdict.ok || fieldAlert || !changed}>
          Apply (reload from the start)
        </button>
        <button
          type="button"
          disabled={!changed && !fieldAlert}
          onClick={() => restart(catalog, experiment.config as Config)}
        >
          Undo changes
        </button>
      </div>
    </form>
  );
}
