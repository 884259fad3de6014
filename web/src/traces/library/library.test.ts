import 'fake-indexeddb/auto'; // the IDB globals idb needs (IDBRequest, ...)
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TraceSummary } from '../../engine/protocol';
import { contentHash } from '../contentHash';
import { closeLibrary, deleteTrace, getTrace, listTraces, putTrace, renameTrace } from './index';

const stats = (requests: number) => ({ requests, reads: requests, writes: 0 }) as unknown as TraceSummary;
const csv = (s: string) => new TextEncoder().encode(s);

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory(); // an empty browser profile for each test
  globalThis.__ftlTestQuotaBytes = undefined;
});
afterEach(async () => {
  await closeLibrary();
  globalThis.__ftlTestQuotaBytes = undefined;
});

/** As if the page were reloaded: the connection and the session's memory are gone. */
const reload = () => closeLibrary();

describe('trace library', () => {
  it('keeps an upload across a reload, keyed by its content hash, with its bytes and statistics', async () => {
    const bytes = csv('1,2,3\n');
    const { entry, existed } = await putTrace(new File([bytes], 'mine.csv'), 'mine.csv', {
      format: 'msr',
      stats: stats(1),
      choices: { timeScale: 2 },
    });
    expect(existed).toBe(false);
    expect(entry).toMatchObject({
      hash: await contentHash(bytes),
      name: 'mine.csv',
      bytes: 6,
      format: 'msr',
      stored: 'library',
    });
    await reload();
    const [listed] = await listTraces();
    expect(listed).toMatchObject({ hash: entry.hash, name: 'mine.csv', stored: 'library', choices: { timeScale: 2 } });
    expect(listed.stats.requests).toBe(1);
    const got = await getTrace(entry.hash);
    expect(got?.file.name).toBe('mine.csv');
    expect(new Uint8Array(await got!.file.arrayBuffer())).toEqual(bytes);
  });

  it('lists newest first, and the same bytes twice give the one entry back', async () => {
    const a = await putTrace(csv('a'), 'a.csv', { format: 'msr', stats: stats(1) });
    await new Promise((r) => setTimeout(r, 2));
    const b = await putTrace(csv('b'), 'b.csv', { format: 'spc', stats: stats(2) });
    const again = await putTrace(csv('a'), 'other-name.csv', { format: 'msr', stats: stats(1) });
    expect(again).toEqual({ entry: a.entry, existed: true });
    expect((await listTraces()).map((e) => e.name)).toEqual([b.entry.name, 'a.csv']);
  });

  it('renames (trimmed, kept across a reload) and refuses an empty name', async () => {
    const { entry } = await putTrace(csv('x'), 'x.csv', { format: 'msr', stats: stats(1) });
    expect(await renameTrace(entry.hash, '  ')).toBeUndefined();
    expect((await renameTrace(entry.hash, '  Week 1 <b>  '))?.name).toBe('Week 1 <b>');
    expect(await renameTrace('0'.repeat(64), 'nobody')).toBeUndefined();
    await reload();
    expect((await getTrace(entry.hash))?.file.name).toBe('Week 1 <b>');
  });

  it('deletes the entry and its bytes', async () => {
    const { entry } = await putTrace(csv('gone'), 'gone.csv', { format: 'msr', stats: stats(1) });
    await deleteTrace(entry.hash);
    expect(await getTrace(entry.hash)).toBeUndefined();
    expect(await listTraces()).toEqual([]);
    // The bytes went too: a raw look in the files store finds nothing.
    await reload();
    const open = indexedDB.open('ftl-lab-library');
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      open.onsuccess = () => {
        const r = open.result.transaction('files').objectStore('files').getAllKeys();
        r.onsuccess = () => {
          open.result.close();
          resolve(r.result);
        };
      };
    });
    expect(keys).toEqual([]);
  });

  it('holds a trace larger than the quota for the session only, and says why', async () => {
    globalThis.__ftlTestQuotaBytes = 1000;
    const big = new Uint8Array(5000);
    const { entry } = await putTrace(big, 'big.csv', { format: 'msr', stats: stats(9) });
    expect(entry.stored).toBe('session');
    expect(entry.whyNotKept).toMatch(/4\.88 KiB.*1000 B.*quota/);
    expect((await getTrace(entry.hash))?.file.size).toBe(5000);
    expect((await listTraces()).map((e) => e.stored)).toEqual(['session']);
    // Renaming and deleting work on it too; after a reload it is gone.
    expect((await renameTrace(entry.hash, 'big'))?.name).toBe('big');
    await reload();
    expect(await listTraces()).toEqual([]);
  });

  it('holds a trace for the session when the browser itself refuses it (QuotaExceededError)', async () => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('no room', 'QuotaExceededError');
    };
    try {
      const { entry } = await putTrace(csv('refused'), 'r.csv', { format: 'msr', stats: stats(1) });
      expect(entry.stored).toBe('session');
      expect(entry.whyNotKept).toMatch(/browser refused.*quota/);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    // Nothing half-written: no entry without bytes survives a reload.
    await reload();
    expect(await listTraces()).toEqual([]);
  });
});
