import { describe, expect, it } from 'vitest';
import { bytes, count, duration, percent } from './format';

describe('trace statistics formatting', () => {
  it('uses binary byte units and readable durations', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.50 KiB');
    expect(bytes(7.5 * 1024 * 1024)).toBe('7.50 MiB');
    expect(bytes(12.63 * 1024 ** 3)).toBe('12.6 GiB');
    expect(duration(20_500)).toBe('20.5 µs');
    expect(duration(127_233_000_000)).toBe('2.1 min');
    expect(duration(3_200_000_000)).toBe('3.2 s');
    expect(percent(0.039)).toBe('3.9 %');
    expect(count(24783)).toBe('24,783');
  });
});
