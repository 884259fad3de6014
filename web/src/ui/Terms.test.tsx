import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Terms } from './Terms';

describe('glossary hovers', () => {
  it('explains the first appearance of each abbreviation only', () => {
    const html = renderToStaticMarkup(
      createElement(Terms, { text: 'The CMT maps LPNs; a CMT miss reads a page. WAF is 1.1.' }),
    );
    expect(html.match(/<abbr/g)).toHaveLength(3);
    expect(html).toContain('title="Cached mapping table');
    expect(html).toContain('>LPNs</abbr>');
  });

  it('explains a term once among texts that share what was seen (the lines of one narration group)', () => {
    const seen = new Set<string>();
    const html = renderToStaticMarkup(
      createElement(
        Fragment,
        null,
        createElement(Terms, { text: 'Write LPN 4 to PPN 12', seen }),
        createElement(Terms, { text: 'CMT miss for LPN 4; read the GTD', seen }),
      ),
    );
    expect(html.match(/<abbr/g)).toHaveLength(4);
    expect(html.match(/>LPN<\/abbr>/g)).toHaveLength(1);
  });
});
