// Resolving a link: where its trace comes from (shipped, inside the link and checked against
// its hash, the library, or the user), and the engine's validation as the judge of its config.
import { describe, expect, it } from 'vitest';
import { SimCore } from '../engine/core';
import type { Catalog, FromWorker, Validation } from '../engine/protocol';
import { loadWasm } from '../test/wasmNode';
import { contentHash } from '../traces/contentHash';
import { encodeFragment, ShareError, traceSegment } from './codec';
import { checkSuppliedFile, resolveLink, type RestoreHost } from './restore';

const wasm = loadWasm();
const { catalog } = new SimCore(wasm).handle({ type: 'catalog', id: 1 })[0] as Extract<
  FromWorker,
  { type: 'catalog' }
> & { catalog: Catalog };
const TRACE = 'msr-cambridge_hm_0_first1000.csv';

function host(library: Record<string, Blob> | 'broken' = {}): RestoreHost {
  return {
    catalog: async () => catalog,
    validate: async (c) => JSON.parse(wasm.validateConfigJson(JSON.stringify(c))) as Validation,
    known: async () => ({ traces: [TRACE], tabs: [] }),
    findTrace: async (h) => {
      if (library === 'broken') throw new Error('IndexedDB refused');
      return library[h];
    },
  };
}

const bytes = new TextEncoder().encode(
  '128166385295514663,hm,0,Write,0,4096,100\n128166385295515663,hm,0,Read,0,4096,100\n',
);

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ShareError);
  return (e as Error).message;
}

describe('resolveLink', () => {
  it('a shipped trace: an experiment over traces/<file> with the full config', async () => {
    const r = await resolveLink(
      encodeFragment({ scheme: 'dftl', trace: { shipped: TRACE }, config: { ram: { bytes: 4096 } } }),
      host(),
    );
    expect(r.kind).toBe('ready');
    if (r.kind !== 'ready') return;
    expect(r.experiment).toMatchObject({
      traceUrl: `traces/${TRACE}`,
      traceName: TRACE,
      config: { scheme: 'dftl', ram: { bytes: 4096 } },
    });
    expect(r.experiment.config.device).toEqual(catalog.defaultConfig.device);
  });

  it('an embedded trace: rebuilt as a file when its hash matches, refused as damaged when not', async () => {
    const hash = await contentHash(bytes);
    const upload = { name: 'two.csv', hash, size: bytes.length };
    const r = await resolveLink(encodeFragment({ scheme: 'page', trace: { upload } }, traceSegment(bytes)), host());
    expect(r.kind === 'ready' && new Uint8Array(await r.experiment.file!.arrayBuffer())).toEqual(bytes);
    // Known by its hash, as an upload is: the trace library marks it loaded, the selector names it once.
    expect(r.kind === 'ready' && r.experiment.traceHash).toBe(hash);
    const other = new TextEncoder().encode('128166385295514663,hm,0,Write,4096,4096,100\n');
    expect(
      await refusal(resolveLink(encodeFragment({ scheme: 'page', trace: { upload } }, traceSegment(other)), host())),
    ).toMatch(/trace inside the link is damaged/);
  });

  it('a trace that did not travel: from the library, else asked for (also when the library fails)', async () => {
    const big = new TextEncoder().encode('128166385295514663,hm,0,Write,8192,4096,100\n');
    const hash = await contentHash(big);
    const link = encodeFragment({ scheme: 'page', trace: { upload: { name: 'big.csv', hash, size: big.length } } });
    const kept = await resolveLink(link, host({ [hash]: new Blob([big]) }));
    expect(kept.kind === 'ready' && kept.experiment.file!.name).toBe('big.csv');
    expect(kept.kind === 'ready' && kept.experiment.traceHash).toBe(hash);
    expect((await resolveLink(link, host())).kind).toBe('needsFile');
    expect((await resolveLink(link, host('broken'))).kind).toBe('needsFile');
    await expect(
      checkSuppliedFile(new File([big], 'x.csv'), { name: 'big.csv', hash, size: big.length }),
    ).resolves.toBeInstanceOf(File);
    expect(
      await refusal(checkSuppliedFile(new File([bytes], 'x.csv'), { name: 'big.csv', hash, size: big.length })),
    ).toMatch(/x\.csv is not the trace of this link.*Nothing was run/);
  });

  it("the engine's validation refuses settings the link's checks let through, naming the field", async () => {
    const link = encodeFragment({
      scheme: 'dftl',
      trace: { shipped: TRACE },
      config: { gc: { victim: 'random-ish' } },
    });
    expect(await refusal(resolveLink(link, host()))).toMatch(/^The engine refuses the link's settings \(gc\.victim\)/);
    const opts = encodeFragment({ scheme: 'dftl', trace: { shipped: TRACE }, options: { batch_update: 'sometimes' } });
    expect(await refusal(resolveLink(opts, host()))).toMatch(/engine refuses the link's settings/);
  });
});
