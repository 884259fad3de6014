import { describe, expect, it } from 'vitest';
import type { RequestTrace } from '../../engine/events';
import { lookupText, lookups } from './lookups';

describe('sync lookups', () => {
  it('counts mapping hits and misses, not data-buffer lookups', () => {
    const t: RequestTrace = {
      index: 2,
      request: { type: 'request', index: 2, op: 'read', lpn: 5, pages: 2 },
      ops: [
        { type: 'cache_miss', level: 'entry', key: 5 },
        { type: 'cache_hit', level: 'translation_page', key: 0 },
        { type: 'cache_hit', level: 'data_page', key: 6 },
        { type: 'cache_miss', level: 'entry', key: 6 },
      ],
    };
    expect(lookups(t)).toEqual({ hits: 1, misses: 2 });
    expect(lookupText(lookups(t))).toBe('1 hit, 2 misses');
    expect(lookupText(lookups(null))).toBe('no mapping lookup');
  });
});
