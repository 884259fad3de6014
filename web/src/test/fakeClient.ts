/**
 * A scripted SimClient for store tests: every request waits until the test answers it, so
 * a test decides exactly what is in flight when (e.g. a move still running when a load starts).
 */
import type { SchemeSpec, SimInfo, TraceParse, ViewData, Vocab } from '../engine/protocol';

type Progress = (p: { label: string; done: number; total: number }) => void;

/** One request the store sent, and its handles. */
export interface Sent {
  body: { type: string; [k: string]: unknown };
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: Progress;
  answered: boolean;
}

/** Records every request; the test resolves or rejects each one. */
export class FakeClient {
  sent: Sent[] = [];
  cancels = 0;

  request(body: Sent['body'], _t?: unknown, onProgress?: Progress) {
    return new Promise((resolve, reject) => {
      const s: Sent = { body, onProgress, answered: false, resolve: () => {}, reject: () => {} };
      s.resolve = (v) => ((s.answered = true), resolve(v));
      s.reject = (e) => ((s.answered = true), reject(e));
      this.sent.push(s);
    });
  }

  cancel() {
    this.cancels++;
  }

  /** Types sent so far, in order. */
  types(): string[] {
    return this.sent.map((s) => s.body.type);
  }

  /** Waits (on real timers) for an unanswered request of `type`. */
  async next(type: string): Promise<Sent> {
    for (let i = 0; i < 200; i++) {
      const s = this.sent.find((x) => !x.answered && x.body.type === type);
      if (s) return s;
      await new Promise((r) => setTimeout(r, 0));
    }
    throw new Error(`no ${type} request; sent: ${this.types().join(', ')}`);
  }

  /** Answers the streaming parse and the build of a load with a simulation of `total` requests. */
  async answerLoad(total: number, view: ViewData) {
    (await this.next('traceOpen')).resolve({
      type: 'traceFed',
      progress: { bytes: 0, lines: 0, requests: 0, done: false },
    });
    (await this.next('traceChunk')).resolve({
      type: 'traceFed',
      progress: { bytes: 1, lines: 1, requests: total, done: false },
    });
    (await this.next('traceClose')).resolve({ type: 'traceParsed', parse: fakeParse(total) });
    (await this.next('loadParsed')).resolve({ type: 'loaded', info: fakeInfo(total), view });
  }
}

/** The spec of a scheme with no options, caches or stops beyond GC. */
export const FAKE_SPEC: SchemeSpec = {
  id: 'page',
  name: 'Page',
  family: 'page',
  source: 'test',
  notes: 'Notes.',
  stops: ['gc'],
  caches: [],
  default_options: {},
  option_docs: [],
  variants: [],
};
/** A vocabulary with one stop. */
export const FAKE_VOCAB: Vocab = {
  stops: [{ id: 'gc', label: 'Next GC', key: 'g', doc: 'Until GC runs.' }],
  block_roles: [],
  page_kinds: [],
  page_states: [],
  purposes: [],
  cache_levels: [],
  tpage_causes: [],
  event_kinds: [],
  event_words: 8,
};

/** Facts about a 2-block simulation of `total` requests. */
export function fakeInfo(total: number): SimInfo {
  return {
    total,
    counterNames: ['requests_done'],
    blocks: 2,
    pagesPerBlock: 2,
    scheme: 'page',
    traceName: 't.csv',
    schemes: [],
    formats: [],
    spec: FAKE_SPEC,
    vocab: FAKE_VOCAB,
    pageBytes: 4096,
    prefilled: 0,
  };
}

/** A parse of `requests` requests (only the fields the store reads). */
export function fakeParse(requests: number): TraceParse {
  return { name: 't.csv', format: 'csv', summary: { requests } } as unknown as TraceParse;
}

/** A view at request `request` of a 2 × 2 device. */
export function fakeView(request: number, done = false): ViewData {
  const frame = {
    pageStates: new Uint8Array(4),
    blockRoles: new Uint8Array(2),
    validCounts: new Uint32Array(2),
    eraseCounts: new Uint32Array(2),
    counters: new Float64Array(1),
    hash: 'h',
  };
  return { frame, pos: { request, op: 0, ops: 0 }, done, stepped: 1, current: null, report: null, recent: [] };
}

/** An uploaded-file experiment (no fetch needed). */
export function fileExperiment(name = 't.csv') {
  return {
    traceUrl: '',
    traceName: name,
    file: new File(['op,offset,size\nW,0,4096\n'], name),
    config: { scheme: 'page' },
  };
}
