/** The abbreviations a student meets, in one place (the "What is an FTL" box, and the hovers of Terms.tsx in the lessons and the views). */
export const GLOSSARY: Record<string, string> = {
  LPN: 'Logical page number: a page as the host (the computer) numbers it.',
  PPN: 'Physical page number: where a page really is on flash (block × pages per block + page).',
  CMT: 'Cached mapping table: the LPN → PPN entries a demand-paged FTL (DFTL, …) keeps in RAM.',
  GTD: 'Global translation directory: in RAM, where each translation page of the map is on flash.',
  CTP: 'Cached translation page: a whole page of the map held in RAM (TreeFTL, CDFTL).',
  CDP: 'Cached data page: a page of host data held in RAM (TreeFTL).',
  DTP: 'Dynamic translation page: HCFTL packs evicted map entries of any range into one such page.',
  WAF: 'Write amplification factor: pages the flash programmed per page the host wrote (1 is ideal).',
  OP: 'Over-provisioning: the share of the flash the host never sees, the room GC works in.',
};
