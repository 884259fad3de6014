// The keyboard focus ring must stand out from what it is drawn on (WCAG 1.4.11: 3:1): the
// panels (white) and the page background. Every outline a focus rule draws is checked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contrast } from '../views/BlockGrid/palette';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? cssFiles(join(dir, d.name)) : d.name.endsWith('.css') ? [join(dir, d.name)] : [],
  );
}

const app = readFileSync(join(SRC, 'app/App.css'), 'utf8');
const root = (name: string) => app.match(new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`))![1];

describe('focus ring', () => {
  const rings = cssFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/([^{}]*:focus(?:-visible)?[^{}]*)\{([^}]*)\}/g)]
      .map((m) => m[2].match(/outline:\s*\d+px\s+solid\s+(#[0-9a-fA-F]{6}|var\(--([a-z-]+)\))/))
      .filter((m): m is RegExpMatchArray => !!m)
      .map((m) => ({ file, color: m[2] ? root(m[2]) : m[1] })),
  );

  it('is found in the app-wide rule', () => {
    expect(rings.some((r) => r.file.endsWith('App.css'))).toBe(true);
  });

  it('has at least 3:1 contrast against the panels and the page background', () => {
    for (const r of rings) {
      expect(contrast(r.color, root('panel')), `${r.file}: ${r.color} on --panel`).toBeGreaterThanOrEqual(3);
      expect(contrast(r.color, root('bg')), `${r.file}: ${r.color} on --bg`).toBeGreaterThanOrEqual(3);
    }
  });
});
