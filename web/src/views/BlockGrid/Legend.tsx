import { useMemo } from 'react';
import type { FrameData } from '../../engine/protocol';
import { useSim, useStore } from '../../store/useSim';
import { legendData, roleEntries } from './legendData';
import {
  ASSOCIATION_LINK,
  BACKGROUND,
  FREE_PAGE,
  INVALID_PAGE,
  MERGE_OUTLINES,
  OP_MARK,
  VICTIM_OUTLINE,
  heatColor,
} from './palette';

/** Props of the grid legend. */
export interface LegendProps {
  /** Erase-count heat instead of roles. */
  heat: boolean;
  frame?: FrameData;
  /** Cells carry logical-page labels. */
  labels: boolean;
  /** The scheme merges log blocks: explain the merge and association marks. */
  merges?: boolean;
}

/** The grid's key: the roles present on the device (or the heat scale) and the marks. */
export function Legend({ heat, frame, labels, merges = false }: LegendProps) {
  const store = useStore();
  // Role names are the engine's (vocabJson), colours the palette's.
  const roleLabels = useSim((s) => s.info?.vocab.block_roles);
  const { roles, maxErase } = useMemo(() => {
    if (!frame) return { roles: [], maxErase: 0 };
    const d = legendData(frame.blockRoles, frame.eraseCounts, heat);
    return { roles: roleEntries(d.roles, roleLabels), maxErase: d.maxErase };
  }, [frame, heat, roleLabels]);

  return (
    <div className="legend-row">
      <div className="seg" role="group" aria-label="Colour blocks by">
        <button type="button" aria-pressed={!heat} onClick={() => heat && store.toggleHeat()} aria-keyshortcuts="H">
          Roles
        </button>
        <button type="button" aria-pressed={heat} onClick={() => !heat && store.toggleHeat()} aria-keyshortcuts="H">
          Erase count
        </button>
      </div>
      <ul className="legend" aria-label="Legend">
        {heat ? (
          <li>
            <span
              className="heat-scale"
              style={{ background: `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map(heatColor).join(', ')})` }}
            />
            erases 0 – {maxErase} (lighter = free page, darker = invalid)
          </li>
        ) : (
          <>
            <li>
              <span className="swatch" style={{ background: FREE_PAGE, border: `1px solid ${BACKGROUND}` }} />
              free
            </li>
            {roles.map((r) => (
              <li key={r.code} data-role={r.code}>
                <span className="swatch" style={{ background: r.color }} />
                valid · {r.name}
              </li>
            ))}
            <li>
              <span className="swatch" style={{ background: INVALID_PAGE }} />
              invalid
            </li>
          </>
        )}
        <li>
          <span className="swatch swatch--outline" style={{ borderColor: VICTIM_OUTLINE }} />
          GC victim
        </li>
        <li>
          <span className="swatch swatch--outline swatch--thin" style={{ borderColor: OP_MARK }} />
          current operation
        </li>
        {merges && (
          <>
            <li data-testid="legend-merge">
              <span className="swatch swatch--outline" style={{ borderColor: MERGE_OUTLINES.data }} />
              <span className="swatch swatch--outline" style={{ borderColor: MERGE_OUTLINES.log }} />
              <span className="swatch swatch--outline" style={{ borderColor: MERGE_OUTLINES.result }} />
              merge: data, log and new data block
            </li>
            <li>
              <span
                className="swatch swatch--outline swatch--thin"
                style={{ borderColor: ASSOCIATION_LINK, borderStyle: 'dotted' }}
              />
              hovered block's log ↔ data partners
            </li>
          </>
        )}
        {labels && <li className="legend__note">numbers: the logical (or translation) page each written page holds</li>}
      </ul>
    </div>
  );
}
