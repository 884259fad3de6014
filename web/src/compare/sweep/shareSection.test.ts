// The Sweep mode in shared links: the app's sweep lab is a registered share section, its
// form travels while it is shown, and a hostile value is refused with a note, changing nothing.
import { describe, expect, it } from 'vitest';
import { shareSections } from '../../share/sections';
import { sweepLab } from '../theLab';
import { sweepShareSection } from './shareSection';
import { SweepLab, type Cold } from './sweepLab';

const cold: Cold = () => Promise.reject(new Error('not asked in these tests'));
const newLab = () => new SweepLab(() => { throw new Error('no runs here'); }, cold);

describe('sweep share section', () => {
  it("is registered for the app's sweep lab, so every link can carry the Sweep form", () => {
    const section = shareSections().find((s) => s.key === 'sweep');
    expect(section).toBeDefined();
    sweepLab.show(true);
    expect(section!.capture()).toEqual({ param: sweepLab.getState().param, values: sweepLab.getState().values, schemes: [] });
    sweepLab.show(false);
    expect(section!.capture()).toBeUndefined();
  });

  it('round-trips the form and the mode into another lab', () => {
    const from = newLab();
    from.show(true);
    from.setParam('utilization', '0.5,0.9');
    from.toggle('page');
    from.toggle('fast');
    const link = JSON.parse(JSON.stringify(sweepShareSection(from).capture()));
    const to = newLab();
    expect(sweepShareSection(to).restore(link)).toBeUndefined();
    expect(to.getState()).toMatchObject({ shown: true, param: 'utilization', values: '0.5,0.9', selected: ['page', 'fast'] });
  });

  it('refuses what a link must not hold, leaving the form as it was', () => {
    const lab = newLab();
    const before = lab.getState();
    for (const bad of [null, 'x', { param: '<script>', values: '1', schemes: [] }, { param: 'ram_bytes', values: '', schemes: [] }, { param: 'ram_bytes', values: '1', schemes: [7] }, { param: 'ram_bytes', values: 'x'.repeat(300), schemes: [] }]) {
      expect(sweepShareSection(lab).restore(bad)).toMatch(/sweep is not one this FTL Lab can read/);
    }
    expect(lab.getState()).toBe(before);
  });
});
