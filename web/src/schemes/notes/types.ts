/**
 * Scheme notes: for each scheme, how it works, which source and section it follows, and
 * every choice we made where the source is silent. One file per scheme in this folder,
 * registered in ../notes.ts; the narration takes the scheme's names for RAM structures
 * from here, so a new scheme needs no code elsewhere to be narrated in its own words.
 */
import type { CacheLevel } from '../../engine/events';
import type { StopKind } from '../../engine/events';

/** A source a scheme follows. */
export interface SourceRef {
  /** Short citation shown in bold, e.g. "Qin, thesis (seed 002) §4.2.2". */
  cite: string;
  /** What that passage gives us. */
  what: string;
}

/** Everything the scheme-notes panel shows for one scheme. */
export interface SchemeNotes {
  /** Engine scheme id (`SchemeInfo.id`). */
  id: string;
  /** Display title. */
  title: string;
  /** One-sentence summary (shown first). */
  summary: string;
  /** How it works, in short paragraphs. */
  howItWorks: string[];
  /** Sources and sections followed. */
  sources: SourceRef[];
  /** Choices we made where the sources are silent or disagree. */
  choices: string[];
  /** What to watch for in the views (teaching hints). */
  watch?: string[];
  /** Names of the scheme's RAM structures, by cache level (narration uses them). */
  vocabulary?: Partial<Record<CacheLevel, string>>;
  /** Jumps that can find something in this scheme (others are disabled). */
  stops: StopKind[];
}
