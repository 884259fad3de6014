/**
 * The extension point for state that lives outside the store and the comparison lab (the
 * the Compare tab's sweeps, say): a section registers here and is then written into every link
 * under `sections.<key>` and restored when a link carries it. The link format does not
 * change: format 1 readers drop sections they do not know, with a note.
 */

export interface ShareSection {
  /** Name in the link (short, stable: renaming it breaks old links). */
  key: string;
  /** The section's state as JSON-able data, or undefined when there is nothing to share. */
  capture(): unknown;
  /**
   * Restores from a link's value, which is untrusted input: check every field. `undefined`
   * when the link has no such section: return to the defaults (the link is the whole state).
   * Returns a note for the user when part of it could not be restored, else undefined.
   */
  restore(value: unknown): string | undefined;
  /** Calls `onChange` when the state changes (the link is rewritten); returns an unsubscribe. */
  subscribe(onChange: () => void): () => void;
}

const sections = new Map<string, ShareSection>();

/** Adds a section (a second one with the same key replaces the first). */
export function registerShareSection(section: ShareSection) {
  sections.set(section.key, section);
}

/** The registered sections. */
export function shareSections(): ShareSection[] {
  return [...sections.values()];
}
