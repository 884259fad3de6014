// @vitest-environment jsdom
// The PNG export's steps with the browser parts faked (jsdom decodes no images and has no
// canvas): what is loaded, the canvas size, the white background, the encoding asked for,
// and that the object URL is released even when drawing fails. The real rendering is
// checked in e2e/compare.spec.ts (a downloaded PNG's signature and size).
import { describe, expect, it } from 'vitest';
import { svgFile } from './draw';
import { drawPanels } from './grouped';
import { hitRatios } from './data';
import { svgToPng, type PngHost } from './png';
import { TEST_KEYS, TEST_RUNS } from './testRuns';

/** A blob's text (jsdom's Blob has no text()). */
function blobText(b: Blob): Promise<string> {
  return new Promise((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as string);
    r.readAsText(b);
  });
}

function fakeHost(opts: { noContext?: boolean; noBlob?: boolean } = {}) {
  const calls: string[] = [];
  const loaded: Blob[] = [];
  const urls = new Map<string, Blob>();
  const host: PngHost = {
    createObjectURL: (b) => {
      const url = `blob:${urls.size}`;
      urls.set(url, b);
      loaded.push(b);
      return url;
    },
    revokeObjectURL: (u) => calls.push(`revoke ${u}`),
    loadImage: async (u) => {
      calls.push(`load ${u}`);
      return { image: u } as unknown as CanvasImageSource;
    },
    createCanvas: (w, h) => {
      calls.push(`canvas ${w}x${h}`);
      const ctx = {
        set fillStyle(v: string) {
          calls.push(`fill ${v}`);
        },
        fillRect: (...a: number[]) => calls.push(`fillRect ${a.join(' ')}`),
        drawImage: (img: { image: string }, ...a: number[]) => calls.push(`draw ${img.image} ${a.join(' ')}`),
      };
      return {
        width: w,
        height: h,
        getContext: () => (opts.noContext ? null : ctx),
        toBlob: (cb: (b: Blob | null) => void, type: string) => {
          calls.push(`encode ${type}`);
          cb(opts.noBlob ? null : new Blob(['png'], { type }));
        },
      } as unknown as HTMLCanvasElement;
    },
  };
  return { host, calls, loaded };
}

describe('svgToPng', () => {
  const el = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  drawPanels(
    el,
    hitRatios(TEST_RUNS, TEST_KEYS),
    { width: 300, height: 200, margin: { top: 10, right: 10, bottom: 40, left: 50 } },
    () => {},
  );
  const text = svgFile(el);

  it("loads the chart's SVG document as an image and draws it twice its size over white as image/png", async () => {
    const { host, calls, loaded } = fakeHost();
    const png = await svgToPng(text, 300, 200, 2, host);
    expect(png.type).toBe('image/png');
    expect(loaded[0].type).toBe('image/svg+xml');
    expect(await blobText(loaded[0])).toBe(text);
    expect(calls).toEqual([
      'load blob:0',
      'canvas 600x400',
      'fill #fff',
      'fillRect 0 0 600 400',
      'draw blob:0 0 0 600 400',
      'encode image/png',
      'revoke blob:0',
    ]);
  });

  it('fails with a message (and releases the URL) when there is no canvas or no encoder', async () => {
    const a = fakeHost({ noContext: true });
    await expect(svgToPng(text, 300, 200, 1, a.host)).rejects.toThrow('no 2D canvas');
    expect(a.calls.at(-1)).toBe('revoke blob:0');
    const b = fakeHost({ noBlob: true });
    await expect(svgToPng(text, 300, 200, 1, b.host)).rejects.toThrow('could not be encoded');
    expect(b.calls.at(-1)).toBe('revoke blob:0');
  });

  it('the SVG it renders stands alone: namespace, size and a white background inside', () => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect([root.getAttribute('width'), root.getAttribute('height')]).toEqual(['300', '200']);
    expect(doc.querySelector('rect.background')!.getAttribute('fill')).toBe('#fff');
  });
});
