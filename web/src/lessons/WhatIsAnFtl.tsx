/**
 * A paragraph for a newcomer: what a flash translation layer is, and the words the views use.
 * It opens over the page (a popover), so the header keeps its height.
 */
import { GLOSSARY } from '../ui/glossary';

export function WhatIsAnFtl() {
  return (
    <details className="what-is-ftl">
      <summary>What is an FTL?</summary>
      <div className="what-is-ftl__pop">
        <p>
          Flash memory cannot overwrite a page: a page is written once, and only a whole block of pages can be erased,
          slowly. A flash translation layer (FTL) hides this from the computer, which sees an ordinary disk of numbered
          logical pages (LPNs). Every write goes to a fresh physical page (PPN) and the FTL remembers where each logical
          page now lives; the old copy becomes invalid. When free blocks run short, garbage collection (GC) copies a
          block&apos;s still-valid pages elsewhere and erases it. Those extra copies are write amplification (WAF), and
          how an FTL keeps its map in little RAM is what the schemes here differ in.
        </p>
        <dl className="glossary">
          {Object.entries(GLOSSARY).map(([k, v]) => (
            <div key={k}>
              <dt>
                <abbr className="term" title={v}>
                  {k}
                </abbr>
              </dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
