// @vitest-environment jsdom
// The upload preview over the real engine agrees with the load: a binary file is called
// binary (not empty), and Load stays off for a file the load would refuse.
import { File as NodeFile } from 'node:buffer';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { engineClient } from '../test/engineClient';
import { UploadPreview } from './UploadPreview';
import { mountPoint } from '../test/dom';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const dom = mountPoint();

async function preview(file: NodeFile) {
  act(() =>
    dom.root.render(
      <UploadPreview
        file={file as unknown as File}
        client={engineClient()}
        formats={['csv', 'msr']}
        choices={{}}
        onCommit={() => {}}
        onCancel={() => {}}
      />,
    ),
  );
  for (let i = 0; i < 100 && !dom.host.querySelector('[data-testid=preview-format]'); i++)
    await act(() => new Promise<void>((r) => setTimeout(r, 10)));
}

const load = () => [...dom.host.querySelectorAll('button')].find((b) => b.textContent === 'Load this trace')!;

describe('UploadPreview', () => {
  it('calls a binary file binary, as the load does, and keeps Load off', async () => {
    // High bytes with no line break in the first 64 KiB (the preview's sample).
    const bytes = new Uint8Array(100_000).map((_, i) => 0x80 | ((i * 2654435761) >>> 13));
    await preview(new NodeFile([bytes], 'binary.bin'));
    expect(dom.host.querySelector('[data-testid=preview-error]')!.textContent).toContain('looks binary');
    expect(load().disabled).toBe(true);
  });

  it('lets a text trace load', async () => {
    await preview(new NodeFile(['128166385295514663,hm,0,Write,9056014336,2048,2833\n'], 'hm.csv'));
    expect(dom.host.querySelector('[data-testid=preview-error]')).toBeNull();
    expect(load().disabled).toBe(false);
  });
});
