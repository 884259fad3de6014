import { describe, expect, it } from 'vitest';
import { groupStarts } from './groups';

const entries = (...groups: (number | undefined)[]) =>
  groups.map((group, key) => ({ key, value: null, dirty: false, group }));

describe('groupStarts', () => {
  it('marks where each group starts when the entries are clustered by group', () => {
    expect(groupStarts(entries(3, 3, 3, 1, 1, 1, 1, 7, 7))).toEqual([0, 3, 7]);
  });

  it('marks nothing for mixed groups, a single group or ungrouped entries', () => {
    expect(groupStarts(entries(3, 1, 3))).toEqual([]);
    expect(groupStarts(entries(2, 2, 2))).toEqual([]);
    expect(groupStarts(entries(9, 9, 6, 10))).toEqual([]); // runs by chance in a short list
    expect(groupStarts(entries(undefined, undefined))).toEqual([]);
  });
});
