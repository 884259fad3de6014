/**
 * Engine events for tests, one line each: a program with the fields a test names, the rest
 * the engine's usual values (a data page, 200 µs).
 */
import type { EngineEvent } from '../engine/events';

type Program = Extract<EngineEvent, { type: 'flash_program' }>;

/**
 * A `flash_program` event; `kind` defaults to 'Data' (a scheme's own page kind, such as
 * HCFTL's 'Dtp', is given by name), `ns` to 200,000.
 */
export function program(
  e: Omit<Program, 'type' | 'kind' | 'ns'> & { kind?: Program['kind'] | (string & {}); ns?: number },
): EngineEvent {
  return { type: 'flash_program', kind: 'Data', ns: 200_000, ...e } as EngineEvent;
}

// A FAST victim log block (block 6) shared by two logical blocks, as ftl/logblock reclaims it:
// per logical block its copies (read, invalidate, program), its old data block's erase and
// the merge event; the victim's own erase before the last merge event.
export const FAST_SHARED_RECLAIM: EngineEvent[] = [
  { type: 'gc_start', victim: 6, valid: 2 },
  { type: 'flash_read', ppn: 0, block: 0, page: 0, purpose: 'merge', key: 0, ns: 25_000 },
  { type: 'invalidate', ppn: 0 },
  program({ ppn: 28, block: 7, page: 0, purpose: 'merge', key: 0, version: 1 }),
  { type: 'erase', block: 0, purpose: 'merge', ns: 2_000_000 },
  {
    type: 'merge',
    kind: 'full',
    lbn: 0,
    data_block: 0,
    log_block: 6,
    result_block: 7,
    cause: 'shared',
    written: 4,
    degree: 2,
  },
  { type: 'flash_read', ppn: 25, block: 6, page: 1, purpose: 'merge', key: 5, ns: 25_000 },
  { type: 'invalidate', ppn: 25 },
  { type: 'flash_program', ppn: 1, block: 0, page: 1, purpose: 'merge', kind: 'Data', key: 5, version: 9, ns: 200_000 },
  { type: 'erase', block: 1, purpose: 'merge', ns: 2_000_000 },
  { type: 'erase', block: 6, purpose: 'merge', ns: 2_000_000 },
  {
    type: 'merge',
    kind: 'full',
    lbn: 1,
    data_block: 1,
    log_block: 6,
    result_block: 0,
    cause: 'shared',
    written: 4,
    degree: 2,
  },
  { type: 'gc_end', victim: 6 },
];
