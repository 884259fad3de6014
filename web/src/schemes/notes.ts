/**
 * The scheme-notes registry: one notes file per scheme in ./notes/. A scheme the engine
 * lists without a notes file still gets a panel, built from the engine's own description.
 */
import type { SchemeInfo } from '../engine/protocol';
import { dftlNotes } from './notes/dftl';
import { pageNotes } from './notes/page';
import type { SchemeNotes } from './notes/types';

export type { SchemeNotes, SourceRef } from './notes/types';

const NOTES: Record<string, SchemeNotes> = {
  [pageNotes.id]: pageNotes,
  [dftlNotes.id]: dftlNotes,
};

/** Notes for scheme `id`; `info` (from the engine) fills in for schemes without a file. */
export function notesFor(id: string, info?: SchemeInfo, hasMappingCache = false): SchemeNotes {
  const known = NOTES[id];
  if (known) return known;
  return {
    id,
    title: info?.name ?? id,
    summary: info ? `A ${info.family} scheme.` : 'No notes yet for this scheme.',
    howItWorks: [],
    sources: info ? [{ cite: info.source, what: 'as listed by the engine' }] : [],
    choices: ['Not written up yet: see the header comment of the scheme’s module in core-wasm/engine/src/ftl/.'],
    stops: hasMappingCache ? ['gc', 'miss', 'merge'] : ['gc', 'merge'],
  };
}
