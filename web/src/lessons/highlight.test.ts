import { describe, expect, it } from 'vitest';
import { highlightedView } from './highlight';
import type { LessonStop } from './lesson';

const stop = (highlight?: string) => ({ at: [1, 0], text: '', views: { highlight } }) as unknown as LessonStop;

describe('a lesson stop points at a view', () => {
  it('the victim is on the block grid; other targets are view ids; none marks nothing', () => {
    expect(highlightedView(stop('victim'))).toBe('grid');
    expect(highlightedView(stop('tree'))).toBe('tree');
    expect(highlightedView(stop())).toBeUndefined();
    expect(highlightedView(undefined)).toBeUndefined();
  });
});
