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
