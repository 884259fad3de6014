import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ShareController, ShareView } from './controller';
import './Share.css';

/** The app's share controller (absent in views rendered without one: no bar then). */
export const ShareContext = createContext<ShareController | null>(null);

const NONE: ShareView = {};
const noop = () => () => {};

function useShare(): [ShareController | null, ShareView] {
  const c = useContext(ShareContext);
  const view = useSyncExternalStore(c?.subscribe ?? noop, c ? c.getState : () => NONE);
  return [c, view];
}

/** The link, selected, for copying by hand when the clipboard refused it. */
function LinkField({ url }: { url: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, [url]);
  return (
    <label className="share__field">
      <span>Copy this link</span>
      <input ref={ref} readOnly value={url} data-testid="share-link" onFocus={(e) => e.target.select()} />
    </label>
  );
}

/**
 * Copy link, and the question a link asks when its trace did not travel with it: which file
 * it is (checked against the link's content hash before anything runs). Every text from a
 * link is rendered as text.
 */
export function ShareBar() {
  const [share, view] = useShare();
  const [busy, setBusy] = useState(false);
  if (!share) return null;
  const { pending, copied } = view;
  return (
    <div className="share">
      <button
        type="button"
        disabled={busy}
        title="Copy a link that reopens this experiment: scheme, settings, trace, position and open tab"
        onClick={() => {
          setBusy(true);
          void share.copy().finally(() => setBusy(false));
        }}
      >
        Copy link
      </button>
      {copied?.ok && (
        <span className="share__done" role="status">
          Link copied.
        </span>
      )}
      {copied && !copied.ok && <LinkField url={copied.url} />}
      {pending && (
        <div className="share__ask" role="group" aria-label="Trace for the shared link">
          <label>
            <span>
              Choose <strong>{pending.name}</strong> ({pending.size.toLocaleString('en-US')} bytes) to open the shared
              experiment:
            </span>{' '}
            <input
              type="file"
              data-testid="share-trace-file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void share.supply(f);
                e.target.value = '';
              }}
            />
          </label>
          <button type="button" onClick={() => share.dismiss()}>
            Not now
          </button>
          {pending.problem && (
            <p className="share__problem" role="alert" data-testid="share-problem">
              {pending.problem}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
