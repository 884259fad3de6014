/**
 * Whether a list's entries come clustered by group (TPFTL's entries by TP node) or mixed (an
 * LRU list whose entries merely belong to translation pages): only clustered lists get group
 * headings, so the rule follows the data, not the scheme.
 */
import type { Entry } from '../../engine/inspection';

/** Entries per group, on average, before headings are worth their lines (a short list of
 * mixed groups can form runs by chance: HCFTL's Ghost-CMT of four entries from three pages). */
const MIN_PER_GROUP = 3;

/** Indices where a new group starts, when the entries form one run per group, there are at
 * least two groups and they hold MIN_PER_GROUP entries on average; otherwise none. */
export function groupStarts(entries: Entry[]): number[] {
  const starts: number[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < entries.length; i++) {
    const g = entries[i].group;
    if (g === undefined) return [];
    if (i > 0 && g === entries[i - 1].group) continue;
    if (seen.has(g)) return []; // a group comes back: mixed, not clustered
    seen.add(g);
    starts.push(i);
  }
  return starts.length >= 2 && entries.length >= MIN_PER_GROUP * starts.length ? starts : [];
}
