/**
 * Reads from the engine that change no timeline position: page contents for hover, the
 * response chart's bins, the RAM inspection, the settings catalog and config checks. They
 * bypass the move queue (store.ts), and a failed read leaves the views as they were: engine
 * trouble is reported by the next move.
 */
import type { SimClient } from '../engine/client';
import type { PageInfo } from '../engine/pageTable';
import type { BlockDuty } from '../engine/inspection';
import { plainConfigMessage } from '../engine/plainWords';
import type { Catalog, Validation } from '../engine/protocol';
import type { SimState } from './state';

export class Reads {
  private catalogReq: Promise<Catalog> | undefined;

  constructor(
    private readonly client: SimClient,
    private readonly live: () => boolean,
    private readonly set: (patch: Partial<SimState>) => void,
  ) {}

  /** What the worker recorded about physical page `ppn` (null when unknown or failed). */
  async pageInfo(ppn: number): Promise<PageInfo | null> {
    if (!this.live()) return null;
    try {
      return (await this.client.request<'pageInfo'>({ type: 'pageInfo', ppn })).info;
    } catch {
      return null; // hover text is optional
    }
  }

  /** What physical `block` does for its logical block (role, GC state), when the scheme says; null otherwise. */
  async blockDuty(block: number): Promise<BlockDuty | null> {
    if (!this.live()) return null;
    try {
      return (await this.client.request<'blockDuty'>({ type: 'blockDuty', block })).duty;
    } catch {
      return null; // hover text is optional
    }
  }

  /** Fetches the binned response times into the state (the chart's data). */
  async responses(): Promise<void> {
    if (!this.live()) return;
    try {
      const r = await this.client.request<'responses'>({ type: 'responses' });
      this.set({ responses: r.series });
    } catch {
      // The chart keeps its last data; the next move asks again.
    }
  }

  /** Fetches the scheme's RAM inspection at the current position into the state (zoomed into tree node `focus`). */
  async inspection(focus?: string): Promise<void> {
    if (!this.live()) return;
    try {
      const r = await this.client.request<'inspection'>({ type: 'inspect', focus });
      this.set({ inspection: r.inspection });
    } catch {
      // The panel keeps its last data.
    }
  }

  /** What the engine can build (config schema, presets, scheme specs); asked once. */
  catalog(): Promise<Catalog> {
    this.catalogReq ??= this.client.request<'catalog'>({ type: 'catalog' }).then(
      (r) => r.catalog,
      (e) => {
        this.catalogReq = undefined; // a replaced worker may answer next time
        throw e;
      },
    );
    return this.catalogReq;
  }

  /** The engine's verdict on a config, without building it. */
  async validate(config: object): Promise<Validation> {
    const { result } = await this.client.request<'validated'>({ type: 'validate', configJson: JSON.stringify(config) });
    return result.ok ? result : { ...result, message: plainConfigMessage(result.message, result.field) };
  }
}
