/**
 * Reads from the engine that change no timeline position: page contents for hover, the
 * response chart's bins, the RAM inspection, the settings catalog and config checks. They
 * bypass the move queue (store.ts), and a failed read leaves the views as they were: engine
 * trouble is reported by the next move.
 */
import type { SimClient } from '../engine/client';
import type { InspectQuery, Inspection } from '../engine/inspection';
import type { PageInfo } from '../engine/pageTable';
import { plainConfigMessage } from '../engine/plainWords';
import type { Catalog, Validation } from '../engine/protocol';
import { Answers } from './answers';
import type { SimState } from './state';

export class Reads {
  private catalogReq: Promise<Catalog> | undefined;
  private readonly answers: Answers;

  constructor(
    private readonly client: SimClient,
    private readonly live: () => boolean,
    private readonly set: (patch: Partial<SimState>) => void,
    private readonly state: () => SimState,
  ) {
    this.answers = new Answers((query) => this.client.request<'inspection'>({ type: 'inspect', query }));
  }

  /** What the worker recorded about physical page `ppn` (null when unknown or failed). */
  async pageInfo(ppn: number): Promise<PageInfo | null> {
    if (!this.live()) return null;
    try {
      return (await this.client.request<'pageInfo'>({ type: 'pageInfo', ppn })).info;
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

  /**
   * The scheme's answer to a view's question where the timeline stands (cached by position
   * and query, answers.ts); null when nothing is loaded or the engine could not answer (the
   * view keeps its last answer).
   */
  inspect(query: InspectQuery): Promise<Inspection | null> {
    if (!this.live()) return Promise.resolve(null);
    const s = this.state();
    return this.answers.fetch(s.info, s.pos, query);
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
