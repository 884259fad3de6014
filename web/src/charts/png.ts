/**
 * PNG export of a chart without a library: the SVG document (styles are attributes, so it
 * stands alone) is loaded as an image, drawn on a canvas `scale` times its size over white,
 * and encoded by the browser (`canvas.toBlob`). The browser parts are passed in (`PngHost`),
 * so the steps are tested under jsdom, which has neither image decoding nor a canvas.
 */

/** What the export needs from the browser. */
export interface PngHost {
  /** Loads an image from a URL (resolves when decoded). */
  loadImage(url: string): Promise<CanvasImageSource>;
  /** A canvas of the given size. */
  createCanvas(width: number, height: number): HTMLCanvasElement;
  createObjectURL(blob: Blob): string;
  revokeObjectURL(url: string): void;
}

/** The real browser. */
export const browserHost: PngHost = {
  loadImage: (url) =>
    new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error('the chart could not be rendered as an image'));
      img.src = url;
    }),
  createCanvas: (width, height) => Object.assign(document.createElement('canvas'), { width, height }),
  createObjectURL: (blob) => URL.createObjectURL(blob),
  revokeObjectURL: (url) => URL.revokeObjectURL(url),
};

/** Renders the SVG document `svgText` (`width` × `height` CSS pixels) as a PNG blob. */
export async function svgToPng(
  svgText: string,
  width: number,
  height: number,
  scale = 2,
  host: PngHost = browserHost,
): Promise<Blob> {
  const url = host.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = await host.loadImage(url);
    const canvas = host.createCanvas(Math.round(width * scale), Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas to draw the chart on');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
    );
  } finally {
    host.revokeObjectURL(url);
  }
}
