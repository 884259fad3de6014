/**
 * Engine events for tests, one line each: a program with the fields a test names, the rest
 * the engine's usual values (a data page, 200 µs).
 */
import type { EngineEvent } from '../engine/events';

type Program = Extract<EngineEvent, { type: 'flash_program' }>;

/** A `flash_program` event; `kind` defaults to 'Data', `ns` to 200,000. */
export function program(e: Omit<Program, 'type' | 'kind' | 'ns'> & Partial<Pick<Program, 'kind' | 'ns'>>): EngineEvent {
  return { type: 'flash_program', kind: 'Data', ns: 200_000, ...e };
}
