// HCFTL's floor on the shared 4 GiB workload (docs/perf.md, "Thirteenth pass"): the memory
// moves seed 001's rule makes per DTP round trip, and nothing else, in a minimal C loop.
//
// Per round trip: the 512 entries of a stored DTP page into per-LPN records and a log (a DTP
// found is loaded whole into the CMT), 512 CMT victims' keys into a bitmap set with bucket
// counts (into the Ghost-CMT), and 512 Ghost-CMT entries read from their records into a new
// page, their records and bits cleared (packing). No window search, no LRU hits, no bloom
// filter, no DTP index, no flash model, no compaction, and the victims' records are still in
// cache: a lower bound on what any implementation that moves each entry spends, not a
// simulator. Stored pages (PAGES of them) hold 512 LPNs drawn within SPREAD of a random base
// each; ROUNDS round trips pick one at random each.
//
//   gcc -O2 -march=native -o /tmp/hcftl-floor scripts/hcftl-floor.c
//   /tmp/hcftl-floor 752 753266 1600   # the 4 GiB workload: its DTPs span 511-1,622 LPNs (median
//                                      # 752), 1,226 of 1,600 in the index at request 500,000
//   /tmp/hcftl-floor 513 307888 158    # the bench workload: spans 511-691 (median 513), 158 DTPs
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LPNS 838860u
#define PER 512u
typedef struct { uint32_t tag, ppn; } Held;

static uint64_t s = 42;
static uint32_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)s; }
static int cmp(const void *a, const void *b) { uint32_t x = *(uint32_t *)a, y = *(uint32_t *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
  // SPREAD, ROUNDS, PAGES: each a count within its bounds, or the usage line.
  const char *name[3] = {"SPREAD", "ROUNDS", "PAGES"};
  const long dflt[3] = {752, 753266, 1600}, most[3] = {LPNS - PER, 100000000, 100000};
  long v[3];
  for (int a = 0; a < 3; a++) {
    char *end = NULL;
    v[a] = argc > a + 1 ? strtol(argv[a + 1], &end, 10) : dflt[a];
    if (v[a] < 1 || v[a] > most[a] || (end && *end)) {
      fprintf(stderr, "hcftl-floor: %s must be a count from 1 to %ld, not '%s'\nusage: hcftl-floor [SPREAD [ROUNDS [PAGES]]]\n",
              name[a], most[a], argv[a + 1]);
      return 2;
    }
  }
  const uint32_t spread = (uint32_t)v[0], ROUNDS = (uint32_t)v[1], PAGES = (uint32_t)v[2];
  Held *held = calloc(LPNS, sizeof(Held));
  uint32_t *pages = malloc((size_t)PAGES * PER * 2 * 4);
  // The log as a ring of 64 DTPs' slots, restarted when full (the engine compacts its log).
  size_t logcap = 64 * PER, logn = 0, boundary = 0;
  uint32_t *log = malloc(logcap * 4);
  uint64_t *bits = calloc(LPNS / 64 + 1, 8);
  uint32_t *counts = calloc(LPNS / 256 + 1, 4);
  uint32_t keys[PER];
  // Fill the stored pages: 512 sorted LPNs within `spread` of a random base each.
  for (uint32_t p = 0; p < PAGES; p++) {
    uint32_t base = rnd() % (LPNS - spread);
    for (uint32_t i = 0; i < PER; i++) keys[i] = base + rnd() % spread;
    qsort(keys, PER, 4, cmp);
    for (uint32_t i = 0; i < PER; i++) { pages[(p * PER + i) * 2] = keys[i]; pages[(p * PER + i) * 2 + 1] = rnd(); }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  uint64_t sum = 0;
  for (uint32_t r = 0; r < ROUNDS; r++) {
    uint32_t p = rnd() % PAGES;
    uint32_t *e = &pages[(size_t)p * PER * 2];
    if (logn + PER > logcap) { logn = 0; boundary = 0; }  // stands in for compaction
    // Load: each entry's record and its log slot.
    for (uint32_t i = 0; i < PER; i++) {
      __builtin_prefetch(&held[e[2 * ((i + 16) % PER)]], 1);
      held[e[2 * i]] = (Held){(uint32_t)(logn + i), e[2 * i + 1]};
      log[logn + i] = e[2 * i];
    }
    logn += PER;
    // Victims into the Ghost-CMT: the oldest CMT slots' keys into the bitmap set.
    if (logn >= 2 * PER) {
      uint32_t w = log[boundary] / 64; uint64_t m = 0;
      for (uint32_t i = 0; i < PER; i++) {
        uint32_t k = log[boundary + i];
        if (k / 64 != w) { bits[w] |= m; counts[w / 4] += __builtin_popcountll(m); w = k / 64; m = 0; }
        m |= 1ull << (k % 64);
      }
      bits[w] |= m; counts[w / 4] += __builtin_popcountll(m);
      boundary += PER;
    }
    // Packing: a window of the ghost's keys (the victims just added, already sorted per
    // page) read from their records into the new page (written over the loaded one, as the
    // loaded DTP is invalidated), records and bits cleared.
    if (boundary >= PER) {
      uint32_t w = log[boundary - PER] / 64; uint64_t m = 0;
      for (uint32_t i = 0; i < PER; i++) {
        uint32_t k = log[boundary - PER + i];
        __builtin_prefetch(&held[log[boundary - PER + (i + 16) % PER]], 1);
        Held h = held[k];
        e[2 * i] = k;
        e[2 * i + 1] = h.ppn;
        held[k] = (Held){0x7fffffff, p};
        if (k / 64 != w) { bits[w] &= ~m; counts[w / 4] -= __builtin_popcountll(m); w = k / 64; m = 0; }
        m |= 1ull << (k % 64);
        sum += h.ppn;
      }
      bits[w] &= ~m; counts[w / 4] -= __builtin_popcountll(m);
    }
  }
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
  printf("spread %u: %.3f s for %u round trips (%.2f us each), checksum %llu\n", spread,
         (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, ROUNDS,
         ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9) / ROUNDS * 1e6, (unsigned long long)sum);
  return 0;
}
