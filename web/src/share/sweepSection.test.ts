// A sweep's settings through a link: carried when set, back to the defaults when a link has
// none, and a hostile value is dropped with a note (the lab keeps what it had).
import { describe, expect, it } from 'vitest';
import { sweepLab } from '../compare/theLab';
import { sweepSection } from './sweepSection';

describe('the sweep section of a link', () => {
  it('is absent at the defaults, carries param, values and schemes once set, and restores them', () => {
    expect(sweepSection.capture()).toBeUndefined();
    sweepLab.setParam('over_provisioning', '0.1,0.2');
    sweepLab.toggle('dftl');
    sweepLab.toggle('page');
    const shared = sweepSection.capture();
    expect(shared).toEqual({ param: 'over_provisioning', values: '0.1,0.2', schemes: ['dftl', 'page'] });

    expect(sweepSection.restore(undefined)).toBeUndefined();
    expect(sweepSection.capture()).toBeUndefined();
    expect(
      sweepSection.restore({ param: 'ram_bytes', values: '4KiB,8KiB', schemes: ['page', 'fast', 'page'] }),
    ).toBeUndefined();
    expect(sweepLab.getState()).toMatchObject({ param: 'ram_bytes', values: '4KiB,8KiB', selected: ['page', 'fast'] });
  });

  it('drops a hostile sweep with a note and keeps the settings it had', () => {
    sweepSection.restore({ param: 'ram_bytes', values: '1,2', schemes: ['page'] });
    for (const bad of [
      [1],
      { param: '<script>', values: '1', schemes: [] },
      { param: 'x', values: 'a\u0000b', schemes: [] },
      { param: 'x', values: '1', schemes: 'page' },
    ]) {
      expect(sweepSection.restore(bad)).toMatch(/its sweep/);
    }
    expect(sweepLab.getState()).toMatchObject({ param: 'ram_bytes', values: '1,2', selected: ['page'] });
  });
});
