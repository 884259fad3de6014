import { useMemo } from 'react';
import { cacheVocabulary } from '../../narration/narrate';
import { useInspection } from '../../store/useInspection';
import { useSim, useStore } from '../../store/useSim';
import { useShownRequest } from '../../store/useShownRequest';
import { BudgetBar } from './BudgetBar';
import { currentStep, highlights, pathSummary, requestPath } from './path';
import { PathStrip } from './PathStrip';
import { StructureView } from './shapes';
import './Cache.css';

/**
 * The scheme's RAM structures as the engine describes them (`inspectJson()`), fetched on
 * demand when the position changes, so it follows the timeline both ways; the engine only
 * builds the description while this panel is shown. Above them, the current request's path
 * through RAM (path.ts), step by step with the timeline; the structure and item of the
 * current step are outlined. While playing, only the path's summary is shown. A scheme whose
 * spec names no caches (page mapping) has no path to show.
 */
export function CachePanel() {
  const store = useStore();
  const { current, op, playing } = useShownRequest();
  const inspection = useInspection({});
  const scheme = useSim((s) => s.info?.spec.name ?? s.info?.scheme);
  const spec = useSim((s) => s.info?.spec);

  const structures = inspection?.structures;
  const pageKinds = useSim((s) => s.info?.vocab.page_kinds);
  const path = useMemo(() => {
    if (!current || !structures) return [];
    const kindNames = Object.fromEntries((pageKinds ?? []).map((k) => [k.id, k.label]));
    return requestPath(current.ops, structures, cacheVocabulary(spec, pageKinds), kindNames);
  }, [current, structures, spec, pageKinds]);
  // Part-way through a request `op` of its ops are applied; at a boundary, all of them.
  const step = currentStep(path, op > 0 ? op : (current?.ops.length ?? 0));
  const hl = highlights(path, step);

  if (!inspection) return <p className="cache">No RAM inspection yet.</p>;
  return (
    <div className="cache" data-testid="cache-panel" aria-label={`RAM structures of ${scheme ?? 'the scheme'}`}>
      <BudgetBar total={inspection.ram_budget} used={inspection.ram_used} budgets={inspection.budgets} />
      {current && (spec?.caches.length ?? 0) > 0 && (
        <section className="cache__path" aria-label="Path through RAM">
          <h4>Path of request #{current.index.toLocaleString('en-US')}</h4>
          <p className="cache__meta cache__summary">{pathSummary(path)}</p>
          {!playing && path.length > 0 && (
            <PathStrip path={path} current={step} go={(i) => void store.seek(current.index, path[i].op + 1)} />
          )}
        </section>
      )}
      {inspection.structures.length === 0 && <p>This scheme keeps no cache in RAM.</p>}
      {inspection.structures.map((s) => (
        <StructureView key={s.id} s={s} hl={hl.get(s.id)} />
      ))}
      {inspection.replayed && (
        <p className="cache__meta">
          Part-way through a request: lists replayed from its cache events (values of new entries unknown until the
          request ends).
        </p>
      )}
    </div>
  );
}
