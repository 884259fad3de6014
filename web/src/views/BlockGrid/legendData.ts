import type { Code } from '../../engine/protocol';
import { ROLES } from './palette';

/**
 * What the grid's legend lists: the block roles present on the device and the highest
 * erase count. Scanned every frame while playing, so it walks the typed arrays with a
 * 256-entry presence table instead of a Set (a Set.add per block cost the paper's
 * 262,144-block device ~10 ms a frame; the 50 ms frame budget), and reads the erase
 * counts only when the heat scale shows them.
 */
export function legendData(
  blockRoles: Uint8Array,
  eraseCounts: Uint32Array,
  heat: boolean,
): { roles: number[]; maxErase: number } {
  const seen = new Uint8Array(256);
  for (let b = 0; b < blockRoles.length; b++) seen[blockRoles[b]] = 1;
  const roles: number[] = [];
  for (let r = 0; r < 256; r++) if (seen[r]) roles.push(r);
  let maxErase = 0;
  if (heat) for (let b = 0; b < eraseCounts.length; b++) if (eraseCounts[b] > maxErase) maxErase = eraseCounts[b];
  return { roles, maxErase };
}

/** One legend row for valid pages of a role. */
export interface RoleEntry {
  code: number;
  /** The engine's label, lower case ("primary", "cleaning destination"). */
  name: string;
  color: string;
}

/**
 * The legend's rows for the roles present (`legendData`), named in the engine's words
 * (`labels`, the vocabulary's block roles; the palette's names until it has come). Only
 * roles on the device are listed, so a scheme's own roles (RFTL's primary, replacement and
 * buffer) appear for that scheme alone. Free blocks have their own row (white), and a code
 * the palette does not know is left out rather than drawn in a wrong colour.
 */
export function roleEntries(roles: number[], labels?: Code[]): RoleEntry[] {
  return roles
    .filter((r) => r !== 0 && ROLES[r])
    .map((r) => ({
      code: r,
      name: labels?.find((c) => c.code === r)?.label.toLowerCase() ?? ROLES[r].name,
      color: ROLES[r].color,
    }));
}
