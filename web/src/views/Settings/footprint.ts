/**
 * A device sized to a trace's footprint: enough logical pages for every page the trace
 * touches, at the device's page size and over-provisioning, so an uploaded trace does not
 * land on the 4 MB teaching device (where its addresses would wrap around).
 */

/** Most physical pages the engine accepts (engine `config::MAX_PAGES`). */
export const MAX_PAGES = 2 ** 27;

export interface DeviceShape {
  page_bytes: number;
  pages_per_block: number;
  blocks: number;
  over_provisioning: number;
}

/**
 * Blocks for `footprintBytes` of touched data on `device` (its page size, block size and
 * over-provisioning kept), with `reserve` extra blocks for garbage collection; null when
 * the engine could not hold it (more than MAX_PAGES).
 */
export function blocksForFootprint(footprintBytes: number, device: DeviceShape, reserve: number): number | null {
  const logical = Math.ceil(footprintBytes / device.page_bytes);
  const physical = Math.ceil(logical / Math.max(0.01, 1 - device.over_provisioning));
  const blocks = Math.ceil(physical / device.pages_per_block) + reserve;
  return blocks * device.pages_per_block > MAX_PAGES ? null : Math.max(blocks, 2 * reserve + 2);
}
