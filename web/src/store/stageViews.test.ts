import { describe, expect, it } from 'vitest';
import { alone, beside, knownStage, STAGE_VIEWS, without } from './stageViews';

describe('stage views', () => {
  it('gives no two views the same digit', () => {
    const keys = STAGE_VIEWS.flatMap((v) => (v.key ? [v.key] : []));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((k) => /^\d$/.test(k))).toBe(true);
  });

  it('puts a view beside the main one, takes it away again, and never beside itself', () => {
    const tree = alone('tree');
    expect(beside(tree, 'grid')).toEqual({ main: 'tree', side: 'grid' });
    expect(beside({ main: 'tree', side: 'grid' }, 'grid')).toEqual({ main: 'tree' });
    expect(beside({ main: 'tree', side: 'grid' }, 'cache')).toEqual({ main: 'tree', side: 'cache' });
    expect(beside(tree, 'tree')).toBe(tree);
  });

  it('without a view, the view beside moves over, or the grid comes back', () => {
    expect(without({ main: 'tree', side: 'grid' }, 'tree')).toEqual({ main: 'grid' });
    expect(without({ main: 'tree', side: 'cache' }, 'tree')).toEqual({ main: 'cache' });
    expect(without({ main: 'tree', side: 'cache' }, 'cache')).toEqual({ main: 'tree' });
    expect(without({ main: 'settings' }, 'settings')).toEqual({ main: 'grid' });
    expect(without({ main: 'tree' }, 'cache')).toEqual({ main: 'tree' });
  });

  it('replaces views it does not know: the grid for the main one, nothing beside', () => {
    expect(knownStage({ main: 'hologram', side: 'tree' })).toEqual({ main: 'grid', side: 'tree' });
    expect(knownStage({ main: 'tree', side: 'hologram' })).toEqual({ main: 'tree' });
    expect(knownStage({ main: 'tree', side: 'tree' })).toEqual({ main: 'tree' });
  });
});
