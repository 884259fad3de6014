/**
 * A preset's arrival timing (engine `Preset::timing`, e.g. `thesis-rftl`: one request per
 * RFTL's L(p)). Choosing a preset applies it; a timing the user sets afterwards wins, and a
 * preset whose source gives no timing leaves the current one as it is.
 */
import type { Preset } from '../../engine/protocol';
import { setAt } from './schemaForm';

/** `config` with `preset`'s timing, when the preset has one. */
export function withPresetTiming<T>(config: T, preset: Pick<Preset, 'timing'>): T {
  return preset.timing === undefined ? config : setAt(config, 'timing', preset.timing);
}
