/** What the block grid says about the page under the pointer (or tapped). */
import type { FrameData } from '../../engine/protocol';
import type { BlockDuty } from '../../engine/inspection';
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
    } else
      content = ' — contents not recorded (pre-filled before the trace, or written while the timeline skipped ahead)';
  }
  return `${where}${content} · ${blockText}`;
}

/**
 * What the block does for its logical block and that block's GC state, from the scheme
 * (engine `Ftl::block_duty`): "replacement of logical block 3 · GC: collecting the primary
 * into the replacement (Fig 4.5 a): 1 of 3 steps done, …". Empty when the scheme says nothing
 * or the answer is for another block. Part-way through a request (`midRequest`) the engine
 * has served the request whole, so the answer is said to hold once the request is served.
 */
export function describeDuty(duty: BlockDuty | null | undefined, block: number, midRequest = false): string {
  if (!duty || duty.block !== block) return '';
  const lbn = duty.lbn === undefined ? '' : ` of logical block ${duty.lbn}`;
  const when = midRequest ? ' (once this request is served)' : '';
  return ` · ${duty.role}${lbn}${when}${duty.gc ? ` · GC: ${duty.gc}` : ''}`;
}
