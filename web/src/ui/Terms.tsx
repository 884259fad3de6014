/**
 * Text with each glossary abbreviation's first appearance explained on hover (an <abbr>).
 * Texts shown together (the lines of one narration group) can share `seen`, so a term is
 * explained once among them, where it first appears.
 */
import { Fragment } from 'react';
import { GLOSSARY } from './glossary';
import './Terms.css';

const TERM = new RegExp(`\\b(${Object.keys(GLOSSARY).join('|')})s?\\b`, 'g');

export function Terms({ text, seen = new Set<string>() }: { text: string; seen?: Set<string> }) {
  const parts: (string | { term: string; shown: string })[] = [];
  let last = 0;
  for (const m of text.matchAll(TERM)) {
    const term = m[1];
    if (seen.has(term)) continue;
    seen.add(term);
    parts.push(text.slice(last, m.index), { term, shown: m[0] });
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <abbr key={i} className="term" title={GLOSSARY[p.term]}>
            {p.shown}
          </abbr>
        ),
      )}
    </>
  );
}
