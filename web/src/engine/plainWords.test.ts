// The JSON reader's refusals of a config, as the engine gives them, in plain words.
import { describe, expect, it } from 'vitest';
import { plainConfigMessage } from './plainWords';

describe('plainConfigMessage', () => {
  it('names the field and what it takes, without Rust types or JSON positions', () => {
    expect(
      plainConfigMessage('config JSON: invalid value: integer `-5`, expected u32 at line 1 column 77', 'device.blocks'),
    ).toBe('device.blocks must be a whole number from 0 to 4,294,967,295, not -5');
    expect(
      plainConfigMessage(
        'config JSON: invalid type: floating point `1e+20`, expected u64 at line 1 column 571',
        'ram.bytes',
      ),
    ).toBe('ram.bytes must be a whole number from 0 to 18,446,744,073,709,551,615, not 1e+20');
    expect(
      plainConfigMessage('config JSON: invalid type: string "NaN", expected u32 at line 1 column 20', 'device.blocks'),
    ).toBe('device.blocks must be a whole number from 0 to 4,294,967,295, not the text "NaN"');
    expect(
      plainConfigMessage(
        'config JSON: unknown variant `best`, expected one of `greedy`, `cost-benefit`, `fifo` at line 1 column 9',
        'gc.victim',
      ),
    ).toBe('gc.victim cannot be "best": it is one of greedy, cost-benefit or fifo');
  });

  it("leaves the engine's own words alone", () => {
    const own = 'device.over_provisioning must be in [0, 0.95), got 1.5';
    expect(plainConfigMessage(own, 'device.over_provisioning')).toBe(own);
  });
});
