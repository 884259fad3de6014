/**
 * The engine's numeric codes, the one place the TypeScript side names them: block roles
 * (frame `blockRoles`), page states (frame `pageStates`), page kinds (spare-area tags) and
 * purposes (event records). The engine owns them (core-wasm/engine/src/vocab.rs, exported
 * by `vocabJson()`); codes.test.ts fails if these drift from it. Labels for legends come
 * from the engine's vocabulary at run time (`SimInfo.vocab`), not from here.
 */

/** Engine `BlockRole` codes. */
export const BLOCK_ROLE = {
  free: 0,
  data: 1,
  translation: 2,
  log: 3,
  replacement: 4,
  buffer: 5,
  dtp: 6,
  active: 7,
  primary: 8,
  cleaning: 9,
} as const;

/** Engine `PageState` codes. */
export const PAGE_STATE = { free: 0, valid: 1, invalid: 2 } as const;

/** Engine `PageKind` codes (`pageTags()` and event records). */
export const PAGE_KIND = { none: 0, data: 1, translation: 2, dtp: 3 } as const;

/** Engine `Purpose` codes (event records). */
export const PURPOSE = { data: 0, translation: 1, log: 2, buffer: 3, gc: 4, merge: 5 } as const;
