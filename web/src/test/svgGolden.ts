/**
 * SVG goldens in the manner of Observable Plot's tests: a drawing is serialised, normalised
 * (numbers rounded to 0.01 so float noise does not churn the files, one element per line so
 * diffs read), and compared with `__golden__/NAME.svg` beside the test. A mismatch writes
 * `__golden__/NAME-changed.svg` for review; a missing golden is a failure too. Accepting a
 * change is the reviewed act: `UPDATE_GOLDEN=1 npx vitest run FILE`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Normalised text of an SVG element. */
export function normaliseSvg(el: Element): string {
  return (
    el.outerHTML
      .replace(/-?\d+\.\d+(e-?\d+)?/g, (n) => String(Math.round(Number(n) * 100) / 100))
      .replace(/>\s*</g, '>\n<')
      .trim() + '\n'
  );
}

/**
 * Compares `el` with the golden `name` in the `__golden__` folder next to `testUrl`
 * (`import.meta.url` of the test). Returns an error text, or null when it matches.
 */
export function svgGoldenMismatch(el: Element, name: string, testUrl: string): string | null {
  const dir = join(dirname(fileURLToPath(testUrl)), '__golden__');
  const file = join(dir, `${name}.svg`);
  const changed = join(dir, `${name}-changed.svg`);
  const actual = normaliseSvg(el);
  mkdirSync(dir, { recursive: true });
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(file, actual);
    rmSync(changed, { force: true });
    return null;
  }
  if (!existsSync(file)) {
    writeFileSync(changed, actual);
    return `no golden ${file}: review ${changed}, then run with UPDATE_GOLDEN=1`;
  }
  if (readFileSync(file, 'utf8') === actual) {
    rmSync(changed, { force: true });
    return null;
  }
  writeFileSync(changed, actual);
  return `${name}.svg differs from the golden: compare ${changed} with ${file}`;
}
