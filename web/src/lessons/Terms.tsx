/** Text with each glossary abbreviation's first appearance explained on hover (an <abbr>). */
import { Fragment } from 'react';
import { GLOSSARY } from './glossary';

const TERM = new RegExp(`\\b(${Object.keys(GLOSSARY).join('|')})s?\\b`, 'g');

export function Terms({ text }: { text: string }) {
  const seen = new Set<string>();
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
