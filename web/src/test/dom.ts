// A React root on a fresh element of the document for every test of the file that calls it.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

export interface MountPoint {
  /** The element the test's component renders into (in the document, so layout and focus work). */
  readonly host: HTMLElement;
  /** The root on `host`. */
  readonly root: Root;
  /** Unmounts and starts a new root on the same element, to mount a second time in one test. */
  remount(): void;
}

/** Call once at the top of a test file: each test gets a new element and root, unmounted and
 *  removed after it. */
export function mountPoint(): MountPoint {
  let host: HTMLElement | undefined;
  let root: Root | undefined;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root!.unmount());
    host!.remove();
  });
  return {
    get host() {
      return host!;
    },
    get root() {
      return root!;
    },
    remount() {
      act(() => root!.unmount());
      root = createRoot(host!);
    },
  };
}
