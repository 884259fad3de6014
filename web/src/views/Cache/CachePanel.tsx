import { useEffect } from 'react';
import { useSim, useStore } from '../../store/useSim';
import { useThrottled } from '../../store/useThrottled';
import { BudgetBar, StructureView } from './shapes';
import './Cache.css';

/** While playing, the panel asks the engine at most this often (ms): never every frame. */
const PLAYING_EVERY_MS = 500;

/**
 * The scheme's RAM structures as the engine describes them (`inspectJson()`), fetched on
 * demand when the position changes, so it follows the timeline both ways; the engine only
 * builds the description while this panel is shown.
 */
export function CachePanel() {
  const store = useStore();
  const playing = useSim((s) => s.status === 'playing');
  const seq = useThrottled(useSim((s) => s.seq), PLAYING_EVERY_MS, playing);
  const inspection = useSim((s) => s.inspection);
  const scheme = useSim((s) => s.info?.scheme);

  useEffect(() => {
    void store.refreshInspection();
  }, [seq, store]);

  if (!inspection) return <p className="cache">No RAM inspection yet.</p>;
  return (
    <div className="cache" data-testid="cache-panel" aria-label={`RAM structures of ${scheme ?? 'the scheme'}`}>
      <BudgetBar total={inspection.ram_budget} used={inspection.ram_used} budgets={inspection.budgets} />
      {inspection.structures.length === 0 && <p>This scheme keeps no cache in RAM.</p>}
      {inspection.structures.map((s) => (
        <StructureView key={s.id} s={s} />
      ))}
      {inspection.replayed && <p className="cache__meta">Part-way through a request: lists replayed from its cache events (values of new entries unknown until the request ends).</p>}
    </div>
  );
}
