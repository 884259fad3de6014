import { describe, expect, it } from 'vitest';
import { BLOCK_ROLE as R } from '../../engine/codes';
import { legendData, roleEntries } from './legendData';
import { ROLES } from './palette';

describe('legendData', () => {
  it('lists each role present once, in code order', () => {
    const d = legendData(new Uint8Array([3, 0, 1, 3, 1, 7]), new Uint32Array(6), false);
    expect(d.roles).toEqual([0, 1, 3, 7]);
  });

  it('finds the highest erase count only for the heat scale', () => {
    const erases = new Uint32Array([2, 9, 4]);
    expect(legendData(new Uint8Array(3), erases, true).maxErase).toBe(9);
    expect(legendData(new Uint8Array(3), erases, false).maxErase).toBe(0);
  });

  it('is empty for an empty device', () => {
    expect(legendData(new Uint8Array(0), new Uint32Array(0), true)).toEqual({ roles: [], maxErase: 0 });
  });

  it("names a scheme's own roles only when its blocks have them, in the engine's words", () => {
    const labels = [
      { code: R.data, id: 'data', label: 'Data' },
      { code: R.replacement, id: 'replacement', label: 'Replacement' },
      { code: R.buffer, id: 'buffer', label: 'Buffer' },
      { code: R.primary, id: 'primary', label: 'Primary' },
      { code: R.cleaning, id: 'cleaning', label: 'Cleaning destination' },
    ];
    // RFTL's device: free blocks and each logical block's primary, replacement and buffer.
    const rftl = legendData(
      new Uint8Array([R.free, R.primary, R.replacement, R.buffer, R.primary]),
      new Uint32Array(5),
      false,
    );
    expect(roleEntries(rftl.roles, labels).map((e) => e.name)).toEqual(['replacement', 'buffer', 'primary']);
    // A page-mapped scheme's device names none of them.
    const page = legendData(new Uint8Array([R.free, R.data, R.active]), new Uint32Array(3), false);
    expect(roleEntries(page.roles, labels).map((e) => e.name)).toEqual(['data', 'open for writes']);
    // GFTL's block being cleaned into.
    const gftl = legendData(new Uint8Array([R.data, R.buffer, R.cleaning]), new Uint32Array(3), false);
    expect(roleEntries(gftl.roles, labels).map((e) => e.name)).toEqual(['data', 'buffer', 'cleaning destination']);
  });

  it('draws each row in its role colour and leaves out codes the palette does not know', () => {
    const entries = roleEntries([R.primary, R.replacement, 200]);
    expect(entries).toEqual([
      { code: R.primary, name: 'primary', color: ROLES[R.primary].color },
      { code: R.replacement, name: 'replacement', color: ROLES[R.replacement].color },
    ]);
  });
});
