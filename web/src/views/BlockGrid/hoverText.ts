/** What the block grid says about the page under the pointer (or tapped). */
import type { FrameData } from '../../engine/protocol';
import { isCurrent, type PageInfo } from '../../engine/pageTable';
import { PAGE_STATE } from '../../engine/codes';
import { ROLES } from './palette';

const STATES = ['free', 'valid', 'invalid'];

/** "Block 12, page 4: valid — LPN 637, version 341 · data block, 5 of 16 valid, erased 3×". */
export function describePage(frame: FrameData, ppb: number, ppn: number, info: PageInfo | null | undefined): string {
  const block = Math.floor(ppn / ppb);
  const state = frame.pageStates[ppn];
  const role = ROLES[frame.blockRoles[block]]?.name ?? `role ${frame.blockRoles[block]}`;
  const where = `Block ${block}, page ${ppn % ppb} (PPN ${ppn}): ${STATES[state] ?? '?'}`;
  const blockText = `${role} block, ${frame.validCounts[block]} of ${ppb} valid, erased ${frame.eraseCounts[block]}×`;
  let content = '';
  if (state !== PAGE_STATE.free) {
    if (info === undefined) content = ' — …';
    else if (isCurrent(info, state, frame.eraseCounts[block])) {
      const what =
        info.kind === 'Translation'
          ? `translation page ${info.key}`
          : info.kind === 'Dtp'
            ? `dynamic translation page ${info.key}`
            : `LPN ${info.key}`;
      content = ` — ${state === PAGE_STATE.invalid ? 'held ' : ''}${what}, version ${info.version}`;
    } else content = ' — contents not recorded (pre-filled before the trace, or written while the timeline skipped ahead)';
  }
  return `${where}${content} · ${blockText}`;
}
