import { describe, expect, it } from 'vitest';
import { withPresetTiming } from './presetTiming';

describe("a preset's timing", () => {
  it('is applied when the preset has one, and left alone when not', () => {
    const config = { timing: 'trace', device: {} };
    expect(withPresetTiming(config, { timing: { periodic: 2325000 } })).toEqual({
      timing: { periodic: 2325000 },
      device: {},
    });
    expect(withPresetTiming({ timing: 'closed' }, {})).toEqual({ timing: 'closed' });
  });
});
