import { describe, expect, it } from 'vitest';
import type { SimClient } from '../engine/client';
import { SimStore } from '../store/store';
import { FakeClient } from '../test/fakeClient';
import { parseStage, stageSection } from './stageSection';

describe('the stage in a link', () => {
  it('is left out of a link while the grid is alone on the stage, and carried otherwise', () => {
    const store = new SimStore(new FakeClient() as unknown as SimClient);
    const section = stageSection(store);
    expect(section.capture()).toBeUndefined();
    store.setStage({ main: 'tree', side: 'grid' });
    expect(section.capture()).toEqual({ main: 'tree', side: 'grid' });
    // A link without one brings the grid back; a link with one restores it.
    expect(section.restore(undefined)).toBeUndefined();
    expect(store.getState().stage).toEqual({ main: 'grid' });
    expect(section.restore({ main: 'cache' })).toBeUndefined();
    expect(store.getState().stage).toEqual({ main: 'cache' });
  });

  it('says which views an odd link names that this app does not have, and shows the grid', () => {
    expect(parseStage({ main: 'hologram', side: 'tree' })).toEqual({
      stage: { main: 'grid', side: 'tree' },
      note: expect.stringContaining("there is no view 'hologram' to put on the stage"),
    });
    expect(parseStage({ main: 'tree', side: 42 }).note).toContain("there is no view '42' to put beside it");
    expect(parseStage({ main: 'tree', side: 42 }).stage).toEqual({ main: 'tree' });
    expect(parseStage([1, 2])).toEqual({ stage: { main: 'grid' }, note: expect.stringContaining('not a JSON object') });
    expect(parseStage('tree').stage).toEqual({ main: 'grid' });
    expect(parseStage({ main: '<img src=x onerror=alert(1)>' }).note).toContain("'<img src=x onerror=alert(1)>'");
  });
});
