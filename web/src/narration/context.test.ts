// The notes that say what the numbers are.
import { describe, expect, it } from 'vitest';
import { prefillNote, queueingNote } from './context';

describe('what the user is looking at', () => {
  it('says the device starts pre-filled', () => {
    expect(prefillNote(0.406)).toBe(
      'Before request 0, 41 % of the pages already hold data: the device starts pre-filled, as a used drive would.',
    );
    expect(prefillNote(0)).toBeNull();
  });

  it('says what the pre-fill did: placed with empty caches, or warmed through the scheme', () => {
    const placed = {
      pages: 11159,
      method: 'placed',
      warm_up: false,
      caches_warm: false,
      blocks_used: 710,
      data_pages_written: 11159,
      translation_pages_written: 178,
      invalid_pages: 0,
      erases: 0,
    } as const;
    expect(prefillNote(0.62, placed)).toBe(
      'Before request 0, 62 % of the pages already hold data: the device starts pre-filled, as a used drive would. Pre-fill: 11,159 pages laid out in LPN order in 710 blocks, 178 translation pages written. The caches start empty.',
    );
    const warm = {
      ...placed,
      method: 'requests',
      warm_up: true,
      caches_warm: true,
      blocks_used: 1021,
      translation_pages_written: 10250,
      invalid_pages: 4984,
      erases: 318,
    } as const;
    expect(prefillNote(0.9, warm)).toBe(
      'Before request 0, 90 % of the pages already hold data: the device starts pre-filled, as a used drive would. Pre-fill: 11,159 pages written through the scheme as requests in 1,021 blocks, 10,250 translation pages written, 4,984 pages already superseded, 318 blocks erased. The caches start warm with what the pre-fill left in them (warm-up).',
    );
  });

  it('says when the mean response is mostly queueing, and how small the device is', () => {
    // hm_0's first 1,000 requests on the 64 × 16 × 4 KiB device (ftl run): mean 2,531 µs,
    // service 253,625 µs in all, footprint 7,852,032 B.
    const note = queueingNote({
      meanResponseUs: 2531,
      serviceTotalUs: 253_625,
      requestsDone: 1000,
      capacityBytes: 64 * 16 * 4096,
      footprintBytes: 7_852_032,
    });
    expect(note).toMatch(
      /^About 90 % of the mean response is queueing: .* on a 4\.00 MiB device far smaller than the trace \(it touches 7\.49 MiB\)/,
    );
    expect(
      queueingNote({ meanResponseUs: 300, serviceTotalUs: 250_000, requestsDone: 1000, capacityBytes: 1 << 22 }),
    ).toBeNull();
    expect(queueingNote({ meanResponseUs: 0, serviceTotalUs: 0, requestsDone: 0, capacityBytes: 1 })).toBeNull();
  });
});
