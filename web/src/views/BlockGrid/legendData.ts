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
