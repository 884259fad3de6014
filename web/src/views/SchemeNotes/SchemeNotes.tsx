import { notesFor } from '../../schemes/notes';
import { useSim } from '../../store/useSim';
import './SchemeNotes.css';

/** How the running scheme works, which sources it follows, and the choices we made. */
export function SchemeNotes() {
  const info = useSim((s) => s.info);
  if (!info) return null;
  const n = notesFor(info.scheme, info.schemes.find((s) => s.id === info.scheme), info.hasMappingCache);
  return (
    <article className="notes" aria-label="Scheme notes" data-testid="scheme-notes">
      <h3>{n.title}</h3>
      <p className="notes__summary">{n.summary}</p>
      {n.howItWorks.length > 0 && (
        <>
          <h4>How it works</h4>
          {n.howItWorks.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </>
      )}
      <h4>Sources</h4>
      <ul>
        {n.sources.map((s) => (
          <li key={s.cite}>
            <strong>{s.cite}</strong>: {s.what}
          </li>
        ))}
      </ul>
      <h4>Our choices where the sources are silent</h4>
      <ul>
        {n.choices.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      {n.watch && (
        <>
          <h4>Try this</h4>
          <ul>
            {n.watch.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}
