/**
 * Wires sharing into the app: the controller over the store and the comparison lab, with
 * what a link is checked against (the engine's catalog and validation, the shipped traces,
 * the side tabs), what is on the stage, and where an uploaded trace may already be (the trace library).
 */
import { compareLab } from '../compare/theLab';
import type { SimStore } from '../store/store';
import { getTrace } from '../traces/library';
import { fetchManifest } from '../traces/manifest';
import { ShareController } from './controller';
import { registerShareSection } from './sections';
import { stageSection } from './stageSection';
import { sweepSection } from './sweepSection';

/** The share controller for `store`; `tabs`: the ids of the side tabs a link may name (the shell's, handed in). */
export function createShare(store: SimStore, tabs: string[]): ShareController {
  registerShareSection(sweepSection);
  registerShareSection(stageSection(store));
  let manifest: Promise<string[]> | undefined;
  return new ShareController(store, compareLab, {
    catalog: () => store.catalog(),
    validate: (config) => store.validate(config),
    async known() {
      manifest ??= fetchManifest().then((m) => m.traces.map((t) => t.file));
      return { traces: await manifest, tabs };
    },
    findTrace: async (hash) => (await getTrace(hash))?.file,
  });
}
