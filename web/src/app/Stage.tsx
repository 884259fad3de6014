import type { ComponentType } from 'react';
import { useLessonHighlight } from '../lessons/highlight';
import { useSim, useStore } from '../store/useSim';
import { STAGE_VIEWS, knownStage, stageView, without } from '../store/stageViews';

/** Props of the stage. */
export interface StageProps {
  /** The components of the views it may show, by view id (panels.tsx's VIEWS). */
  views: Record<string, ComponentType>;
}

const label = (id: string) => stageView(id)?.label ?? id;

/**
 * The main area: the view the store's `stage.main` names, and `stage.side` beside it. A bar
 * above picks them (as do the digit keys, keymap.ts); what is not on the stage is in the side
 * tabs. Anything that wants a view shown (a lesson, a presenter) sets `store.setStage`.
 */
export function Stage({ views }: StageProps) {
  const store = useStore();
  const stage = knownStage(useSim((s) => s.stage));
  const Main = views[stage.main] ?? views.grid;
  const Side = stage.side ? views[stage.side] : undefined;
  const options = STAGE_VIEWS.filter((v) => views[v.id]);
  // A lesson stop's text points at a view: its pane is outlined while the stop is open.
  const marked = useLessonHighlight();
  return (
    <section
      className={`app__stage panel stage${Side ? ' stage--split' : ''}`}
      aria-label="Stage"
      data-testid="stage"
      data-main={stage.main}
      data-side={stage.side ?? ''}
    >
      <div className="stage__bar" role="group" aria-label="What is on the stage">
        <label>
          On stage{' '}
          <select
            value={stage.main}
            onChange={(e) => store.setStage({ main: e.target.value, side: stage.side })}
            aria-label="View on the stage"
          >
            {options.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
                {v.key ? ` (${v.key})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          beside it{' '}
          <select
            value={stage.side ?? ''}
            onChange={(e) => store.setStage({ main: stage.main, side: e.target.value || undefined })}
            aria-label="View beside it"
          >
            <option value="">nothing</option>
            {options
              .filter((v) => v.id !== stage.main)
              .map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                  {v.key ? ` (Shift+${v.key})` : ''}
                </option>
              ))}
          </select>
        </label>
        <span className="stage__hint">keys 1–9, 0; ? lists them</span>
      </div>
      <div className="stage__panes">
        <Pane id={stage.main} View={Main} marked={marked} />
        {Side && stage.side && <Pane id={stage.side} View={Side} marked={marked} />}
      </div>
    </section>
  );
}

/** What a side tab shows while its view is on the stage. */
export function OnStageNote({ id }: { id: string }) {
  const store = useStore();
  const stage = useSim((s) => s.stage);
  return (
    <p className="stage__note" data-testid="on-stage-note">
      {label(id)} is on the stage.{' '}
      <button type="button" onClick={() => store.setStage(without(stage, id))}>
        Bring it back here
      </button>
    </p>
  );
}

/** One view on the stage, outlined when a lesson stop points at it (`marked`). */
function Pane({ id, View, marked }: { id: string; View: ComponentType; marked: string | undefined }) {
  return (
    <div
      className="stage__pane"
      data-view={id}
      data-highlight={marked === id ? 'lesson' : undefined}
      aria-label={label(id)}
      role="region"
    >
      <View />
    </div>
  );
}
