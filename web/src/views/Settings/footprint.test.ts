import { describe, expect, it } from 'vitest';
import { blocksForFootprint, MAX_PAGES } from './footprint';

const DEVICE = { page_bytes: 4096, pages_per_block: 64, blocks: 64, over_provisioning: 0.25 };

describe('blocksForFootprint', () => {
  it('holds the footprint in logical space after over-provisioning, plus the GC reserve', () => {
    // 1.2 GB of touched data: 292,969 pages of 4 KiB → 390,625 physical → 6,104 blocks + reserve.
    const blocks = blocksForFootprint(1.2e9, DEVICE, 4)!;
    expect(blocks).toBe(6108);
    const logical = Math.floor((blocks - 4) * 64 * (1 - 0.25));
    expect(logical * 4096).toBeGreaterThanOrEqual(1.2e9);
  });

  it('refuses footprints beyond what the engine can simulate', () => {
    expect(blocksForFootprint(MAX_PAGES * 4096 * 2, DEVICE, 4)).toBeNull();
  });

  it('never goes below a device GC can work on', () => {
    expect(blocksForFootprint(4096, DEVICE, 4)).toBe(10);
  });
});
