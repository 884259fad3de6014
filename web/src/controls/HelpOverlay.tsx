import { useEffect, useMemo, useRef } from 'react';
import { useSim, useStore } from '../store/useSim';
import { shortcuts } from './keymap';

/** The keyboard help ('?'): every shortcut from the keymap, grouped. A modal dialog. */
export function HelpOverlay() {
  const store = useStore();
  const open = useSim((s) => s.help);
  const stops = useSim((s) => s.info?.vocab.stops);
  const list = useMemo(() => shortcuts(stops ?? []), [stops]);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const groups = ['Timeline', 'Jump', 'View', 'Stage'] as const;
  return (
    <dialog ref={ref} className="help" aria-labelledby="help-title" onClose={() => store.setHelp(false)}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <div className="help__cols">
        {groups.map((g) => (
          <section key={g}>
            <h3>{g}</h3>
            <dl>
              {list
                .filter((s) => s.group === g)
                .map((s) => (
                  <div key={s.label}>
                    <dt>
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' or '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </dt>
                    <dd>{s.label}</dd>
                  </div>
                ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="help__note">
        Click a narration line or a spike in the response chart to jump there. Hover or tap a page for what it holds.
        With the keyboard: Tab to the block grid, then the arrows move a page cursor (Esc lets go); Tab to the
        narration, then ↑ ↓ walk its lines and Enter goes there. The timeline keys work everywhere else except in text
        fields.
      </p>
      <form method="dialog">
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
