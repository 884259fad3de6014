import { marked } from 'marked';
import { useMemo } from 'react';
import { useSim } from '../../store/useSim';
import './SchemeNotes.css';

/**
 * How the running scheme works, which sources it follows, and the choices we made: the
 * scheme's own notes.md, shipped inside the engine with its spec (`infoJson().spec.notes`),
 * so a new scheme brings its notes with no app code. The markdown is ours (compiled into
 * the engine), not user input, so rendering it as HTML is safe.
 */
export function SchemeNotes() {
  const notes = useSim((s) => s.info?.spec.notes);
  const html = useMemo(() => (notes ? (marked.parse(notes, { async: false }) as string) : ''), [notes]);
  if (!notes) return null;
  return (
    <article
      className="notes"
      aria-label="Scheme notes"
      data-testid="scheme-notes"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
