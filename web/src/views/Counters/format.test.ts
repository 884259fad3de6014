import { describe, expect, it } from 'vitest';
import { formatCounter } from './format';

describe('formatCounter', () => {
  it('formats ratios, times and counts differently', () => {
    expect(formatCounter('waf', 1.23456)).toBe('1.235');
    expect(formatCounter('waf', 0)).toBe('–');
    expect(formatCounter('response_mean_us', 2265.04)).toBe('2,265.0');
    expect(formatCounter('flash_erases', 12345)).toBe('12,345');
    expect(formatCounter('gc_runs', NaN)).toBe('–');
  });
});
