// The controller over the real store and engine (in-process): a link opens at its position
// with the sender's state hash; a new experiment pushes a history entry, a move replaces it;
// popstate restores; a link whose trace is not at hand waits for the file and checks it.
import { describe, expect, it } from 'vitest';
import { CompareLab } from '../compare/lab';
import type { SimClient } from '../engine/client';
import { SimStore } from '../store/store';
import { CoreClient } from '../test/coreClient';
import { decodeFragment, encodeFragment, traceSegment } from './codec';
import { ShareController, type ShareWindow } from './controller';
import { registerShareSection } from './sections';
import { stageSection } from './stageSection';
import { contentHash } from '../traces/contentHash';

/** An MSR trace of `n` writes over `span` pages. */
function trace(n: number, span = 97): Uint8Array<ArrayBuffer> {
  const lines = Array.from(
    { length: n },
    (_, i) => `${128166385295514663 + i * 1000},hm,0,${i % 3 ? 'Write' : 'Read'},${((i * 31) % span) * 4096},4096,100`,
  );
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** A window whose history is an array (what pushState / replaceState left). */
class FakeWindow implements ShareWindow {
  entries: string[];
  at = 0;
  private pop?: () => void;
  constructor(url: string) {
    this.entries = [url];
  }
  get location() {
    const href = this.entries[this.at];
    return { href, hash: href.includes('#') ? href.slice(href.indexOf('#')) : '' };
  }
  history = {
    pushState: (_: unknown, __: string, url?: string | URL | null) => {
      this.entries = [...this.entries.slice(0, this.at + 1), String(url)];
      this.at++;
    },
    replaceState: (_: unknown, __: string, url?: string | URL | null) => {
      this.entries[this.at] = String(url);
    },
  };
  addEventListener(type: 'popstate' | 'hashchange', fn: () => void) {
    if (type === 'popstate') this.pop = fn;
  }
  go(delta: number) {
    this.at += delta;
    this.pop?.();
  }
}

function setup(url: string) {
  const client = new CoreClient();
  const store = new SimStore(client as unknown as SimClient);
  const win = new FakeWindow(url);
  registerShareSection(stageSection(store));
  const share = new ShareController(
    store,
    new CompareLab(),
    {
      catalog: () => store.catalog(),
      validate: (c) => store.validate(c),
      known: async () => ({ traces: [], tabs: ['trace', 'compare'] }),
    },
    win,
  );
  return { store, win, share };
}

/** Waits (real timers) until `f` holds. */
async function until(f: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (f()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('ShareController', () => {
  it('opens an embedded-trace link at its position with the same state hash, then pushes new experiments and replaces moves', async () => {
    const bytes = trace(300);
    const hash = await contentHash(bytes);
    const upload = { name: 'mine.csv', hash, size: bytes.length };

    // The sender's state hash, by loading the same file and seeking.
    const sender = new SimStore(new CoreClient() as unknown as SimClient);
    await sender.load({
      traceUrl: '',
      traceName: 'mine.csv',
      file: new File([bytes], 'mine.csv'),
      config: { scheme: 'dftl' },
    });
    await sender.seek(123);
    await sender.refresh();
    const sent = sender.getState().frame!.hash;

    const link = encodeFragment(
      { scheme: 'dftl', trace: { upload }, at: [123, 0], tab: 'compare' },
      traceSegment(bytes),
    );
    const { store, win, share } = setup(`http://app/${link}`);
    await share.start();
    let s = store.getState();
    expect([s.info?.scheme, s.info?.total, s.pos.request, s.tab]).toEqual(['dftl', 300, 123, 'compare']);
    await store.refresh();
    expect(store.getState().frame!.hash).toBe(sent);

    // A move replaces the entry; a new scheme pushes one.
    await store.seek(200);
    await until(() => win.entries[0] !== `http://app/${link}`, 'the link to be rewritten');
    expect(win.entries).toHaveLength(1);
    await store.switchScheme('page');
    await until(() => win.entries.length === 2, 'a pushed entry');
    s = store.getState();
    expect([s.info?.scheme, s.pos.request]).toEqual(['page', 200]);

    // Back: dftl at 200, the same uploaded bytes (met this session: no file asked for).
    win.go(-1);
    await until(
      () =>
        store.getState().info?.scheme === 'dftl' &&
        store.getState().pos.request === 200 &&
        store.getState().status === 'ready',
      'back to dftl',
    );
    expect(share.getState().pending).toBeUndefined();
    win.go(1);
    await until(
      () => store.getState().info?.scheme === 'page' && store.getState().status === 'ready',
      'forward to page',
    );
    expect(win.entries).toHaveLength(2);
  });

  it('asks for a trace that did not travel, refuses a wrong file by hash, and opens the right one', async () => {
    const bytes = trace(200, 53);
    const hash = await contentHash(bytes);
    const link = encodeFragment({
      scheme: 'page',
      trace: { upload: { name: 'big.csv', hash, size: bytes.length } },
      at: [150, 0],
    });
    // Nothing is loaded to fall back on in Node (the default trace is fetched): load one first.
    const { store, win, share } = setup('http://app/');
    await share.start().catch(() => {});
    await store.load({
      traceUrl: '',
      traceName: 'other.csv',
      file: new File([trace(20)], 'other.csv'),
      config: { scheme: 'page' },
    });
    await until(() => win.entries[0].includes('#ftl1.'), 'the link of the loaded experiment');
    win.history.pushState(null, '', `http://app/${link}`);
    win.go(0);
    await until(() => !!share.getState().pending, 'the file question');
    expect(share.getState().pending).toMatchObject({ name: 'big.csv', size: bytes.length });
    expect(store.getState().notice).toMatch(/uploaded trace big\.csv .* choose that file/);

    await share.supply(new File([trace(200, 59)], 'big.csv'));
    expect(share.getState().pending?.problem).toMatch(/big\.csv is not the trace of this link/);
    expect(store.getState().info?.total).toBe(20);

    await share.supply(new File([bytes], 'copy-of-big.csv'));
    const s = store.getState();
    expect(share.getState().pending).toBeUndefined();
    expect([s.info?.total, s.pos.request, s.experiment.traceName]).toEqual([200, 150, 'big.csv']);
  });

  it('keeps a section the user changed while its link was loading, and writes it into the address bar', async () => {
    const bytes = trace(300);
    const upload = { name: 'mine.csv', hash: await contentHash(bytes), size: bytes.length };
    const link = encodeFragment(
      { scheme: 'page', trace: { upload }, at: [250, 0], sections: { stage: { main: 'counters' } } },
      traceSegment(bytes),
    );
    const stageIn = (hash: string) =>
      (decodeFragment(hash).state as { sections?: { stage?: { main: string } } }).sections?.stage;

    // Nobody moves: the link's stage is restored.
    const quiet = setup(`http://app/${link}`);
    await quiet.share.start();
    expect([quiet.store.getState().pos.request, quiet.store.getState().stage.main]).toEqual([250, 'counters']);

    // The user picks a view while the link's position is being reached (a presenter left
    // with Esc during a stop's restore does the same): the user's view stays.
    const { store, win, share } = setup(`http://app/${link}`);
    const seek = store.seek.bind(store);
    store.seek = (request, op) => {
      store.setStage({ main: 'trace' });
      return seek(request, op);
    };
    await share.start();
    expect([store.getState().pos.request, store.getState().stage.main]).toEqual([250, 'trace']);
    await until(() => stageIn(win.location.hash)?.main === 'trace', "the user's view in the address bar");
    expect(win.entries).toHaveLength(1);
  });

  it('stops a link that a later one overtook: Back during a restore shows the earlier entry as it was', async () => {
    const bytes = trace(300);
    const upload = { name: 'mine.csv', hash: await contentHash(bytes), size: bytes.length };
    const segment = traceSegment(bytes);
    const first = encodeFragment({ scheme: 'page', trace: { upload }, at: [100, 0] }, segment);
    const second = encodeFragment(
      { scheme: 'page', trace: { upload }, at: [250, 0], sections: { stage: { main: 'counters' } } },
      segment,
    );
    const { store, win, share } = setup(`http://app/${first}`);
    await share.start();
    expect([store.getState().pos.request, store.getState().stage.main]).toEqual([100, 'grid']);
    win.entries.push(`http://app/${second}`);

    // Forward to the second link; Back is pressed while its position is being reached.
    const seek = store.seek.bind(store);
    let pressed = false;
    store.seek = (request, op) => {
      if (!pressed) {
        pressed = true;
        win.go(-1);
      }
      return seek(request, op);
    };
    win.go(1);
    await until(() => store.getState().pos.request === 100 && !store.getState().busy, 'back at the first link');
    await new Promise((r) => setTimeout(r, 1500));
    expect([store.getState().pos.request, store.getState().stage.main]).toEqual([100, 'grid']);
    expect(win.entries[0]).toBe(`http://app/${first}`);
  });
});
