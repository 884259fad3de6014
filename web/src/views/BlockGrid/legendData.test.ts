import { describe, expect, it } from 'vitest';
import { legendData } from './legendData';

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
});
