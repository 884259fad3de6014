// The link's bytes: round trips, and every way a link can be broken is refused with a message.
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  decodeFragment,
  encodeFragment,
  EMBED_MAX_BYTES,
  fromBase64Url,
  MAX_STATE_BYTES,
  ShareError,
  SHARE_VERSION,
  toBase64Url,
  traceSegment,
} from './codec';

const state = {
  scheme: 'dftl',
  config: { device: { blocks: 128 } },
  trace: { shipped: 'msr-cambridge_hm_0_first1000.csv' },
  at: [300, 2],
  tab: 'compare',
};

/** The ShareError message `f` throws (fails if it throws anything else or nothing). */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ShareError);
    return (e as Error).message;
  }
  throw new Error('expected a ShareError');
}

describe('share codec', () => {
  it('round-trips the state, with and without an embedded trace', () => {
    const hash = encodeFragment(state);
    expect(hash.startsWith(`#ftl${SHARE_VERSION}.`)).toBe(true);
    expect(decodeFragment(hash)).toEqual({ state });

    const bytes = new TextEncoder().encode('128166385295514663,hm,0,Write,0,4096,100\n'.repeat(200));
    const withTrace = encodeFragment(state, traceSegment(bytes));
    const d = decodeFragment(withTrace);
    expect(d.state).toEqual(state);
    expect(d.trace).toEqual(bytes);
  });

  it('base64url survives every byte value and every length', () => {
    for (let n = 0; n < 70; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      const t = toBase64Url(b);
      expect(t).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(fromBase64Url(t, 'x')).toEqual(b);
    }
  });

  it('is compact: a typical experiment is a short link', () => {
    expect(encodeFragment(state).length).toBeLessThan(200);
    expect(EMBED_MAX_BYTES).toBe(65536);
  });

  it('refuses a wrong version, naming both formats', () => {
    const body = encodeFragment(state).slice(`#ftl${SHARE_VERSION}`.length);
    expect(refusal(() => decodeFragment(`#ftl7${body}`))).toMatch(/format 7.*reads format 1/);
  });

  it('refuses bad base64', () => {
    expect(refusal(() => decodeFragment('#ftl1.ab$cd'))).toMatch(/damaged \(not base64url/);
    expect(refusal(() => decodeFragment('#ftl1.a'))).toMatch(/damaged/);
  });

  it('refuses data that is not DEFLATE', () => {
    const junk = toBase64Url(new TextEncoder().encode('this is not compressed at all, just text'));
    expect(refusal(() => decodeFragment(`#ftl1.${junk}`))).toMatch(/cannot be unpacked|cut short/);
  });

  it('refuses a truncated link, wherever it was cut', () => {
    const full = encodeFragment({ ...state, filler: 'x'.repeat(300) + Math.random() });
    for (const keep of [0.3, 0.6, 0.9]) {
      const cut = full.slice(0, Math.floor(full.length * keep));
      expect(refusal(() => decodeFragment(cut))).toMatch(/cut short|cannot be unpacked|damaged|not readable/);
    }
    expect(refusal(() => decodeFragment('#ftl1'))).toMatch(/not a complete/);
    expect(refusal(() => decodeFragment('#ftl1.'))).toMatch(/holds no experiment/);
  });

  it('refuses a compression bomb before unpacking it whole', () => {
    const bomb = toBase64Url(deflateSync(new Uint8Array(8 * 1024 * 1024), { level: 9 }));
    expect(bomb.length).toBeLessThan(200_000);
    expect(refusal(() => decodeFragment(`#ftl1.${bomb}`))).toMatch(
      new RegExp(`too large once unpacked \\(over ${MAX_STATE_BYTES.toLocaleString('en-US')}`),
    );
  });

  it('refuses state that is not a JSON object', () => {
    const enc = (text: string) => `#ftl1.${toBase64Url(deflateSync(new TextEncoder().encode(text)))}`;
    expect(refusal(() => decodeFragment(enc('{"scheme": ')))).toMatch(/not JSON/);
    expect(refusal(() => decodeFragment(enc('[1,2]')))).toMatch(/not a JSON object/);
    expect(refusal(() => decodeFragment(enc('"<script>alert(1)</script>"')))).toMatch(/not a JSON object/);
    expect(
      refusal(() => decodeFragment(`#ftl1.${toBase64Url(deflateSync(new Uint8Array([0xff, 0xfe, 0x7b])))}`)),
    ).toMatch(/not JSON/);
  });

  it('refuses extra parts and an overlong link', () => {
    expect(refusal(() => decodeFragment(`${encodeFragment(state)}.AAAA.BBBB`))).toMatch(/not a complete/);
    expect(refusal(() => decodeFragment(`#ftl1.${'A'.repeat(300_000)}`))).toMatch(/too long/);
  });
});
