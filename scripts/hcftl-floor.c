// What the memory moves of HCFTL's rule cost in plain C (docs/perf.md, "Thirteenth pass"): a
// yardstick for the engine's HCFTL, not a simulator and not a proof of a bound.
//
// Per DTP round trip, seed 001's rule moves every entry of three DTPs' worth: a stored DTP
// page's 512 entries into per-LPN records and a log (a DTP found is loaded whole into the
// CMT); the 512 oldest CMT entries' keys into the Ghost-CMT's bitmap set with bucket counts
// (the CMT's victims); and 512 Ghost-CMT entries read from their records into the page just
// freed, records and bits cleared (packing). Entries circulate as the engine's do: loaded,
// evicted CMT_PAGES round trips later, packed GHOST_PAGES after that, so their records have
// gone cold in between, and every page's content stays a distinct set of 512 sorted LPNs
// within SPREAD of its first. Left out: the window search (the packed window is given), LRU
// hits, bloom filters, the DTP index, log compaction and the flash model.
//
// MODE `each` moves entries one at a time, as the engine's general path does; `runs` moves a
// content whose LPNs are consecutive (SPREAD 512 makes them all so) as one run: contiguous
// records, whole bitmap words. The two show what a representation that knows its runs could
// save, not what a general one must spend.
//
//   gcc -O2 -march=native -o /tmp/hcftl-floor scripts/hcftl-floor.c
//   /tmp/hcftl-floor each 752 753266 1600 310 36   # the 4 GiB workload: DTPs span 511-1,622
//                                                  # LPNs (median 752); CMT 158,640 entries
//   /tmp/hcftl-floor runs 512 307888 158 318 36    # the bench workload: spans 511-691
//                                                  # (median 513); CMT 163,146 entries
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LPNS 838860u
#define PER 512u
#define NIL 0x7fffffffu
typedef struct {
  uint32_t tag, ppn;
} Held;

static uint64_t s = 42;
static uint32_t rnd(void) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return (uint32_t)s;
}

static void *need(void *p) {
  if (!p) {
    fprintf(stderr, "hcftl-floor: out of memory\n");
    exit(1);
  }
  return p;
}

// 512 distinct sorted LPNs within `spread` of a random first one, into `lpns`.
static void draw_content(uint32_t *lpns, uint32_t spread, uint8_t *seen) {
  uint32_t base = rnd() % (LPNS - spread);
  memset(seen, 0, spread);
  for (uint32_t n = 0; n < PER;) {
    uint32_t o = rnd() % spread;
    if (!seen[o]) seen[o] = 1, n++;
  }
  for (uint32_t o = 0, n = 0; o < spread; o++)
    if (seen[o]) lpns[n++] = base + o;
}

int main(int argc, char **argv) {
  const char *usage = "usage: hcftl-floor each|runs [SPREAD [ROUNDS [PAGES [CMT_PAGES [GHOST_PAGES]]]]]\n";
  if (argc < 2 || (strcmp(argv[1], "each") && strcmp(argv[1], "runs"))) {
    fprintf(stderr, "hcftl-floor: MODE must be 'each' or 'runs', not '%s'\n%s", argc < 2 ? "" : argv[1], usage);
    return 2;
  }
  const int runs = !strcmp(argv[1], "runs");
  const char *name[5] = {"SPREAD", "ROUNDS", "PAGES", "CMT_PAGES", "GHOST_PAGES"};
  const long dflt[5] = {752, 753266, 1600, 310, 36}, least[5] = {PER, 1, 1, 1, 1},
             most[5] = {LPNS / 2, 100000000, 100000, 10000, 10000};
  long v[5];
  for (int a = 0; a < 5; a++) {
    char *end = NULL;
    v[a] = argc > a + 2 ? strtol(argv[a + 2], &end, 10) : dflt[a];
    if (v[a] < least[a] || v[a] > most[a] || (end && *end)) {
      fprintf(stderr, "hcftl-floor: %s must be a count from %ld to %ld, not '%s'\n%s", name[a], least[a], most[a],
              argv[a + 2], usage);
      return 2;
    }
  }
  const uint32_t spread = v[0], rounds = v[1], pages = v[2], cmt = v[3], ghost = v[4];
  // The log: a ring of the loads in flight, CMT_PAGES in the CMT and GHOST_PAGES in the
  // Ghost-CMT, one being loaded (LPNs only: each entry's PPN is in its record).
  const uint32_t ring = cmt + ghost + 1;
  Held *held = need(calloc(LPNS, sizeof(Held)));
  uint32_t *store = need(malloc((size_t)pages * PER * 2 * 4));  // LPN, PPN per entry
  uint32_t *log = need(malloc((size_t)ring * PER * 4));
  uint64_t *bits = need(calloc(LPNS / 64 + 1, 8));
  uint32_t *counts = need(calloc(LPNS / 256 + 1, 4));
  uint8_t *seen = need(malloc(spread));
  for (uint32_t i = 0; i < LPNS; i++) held[i] = (Held){NIL, 0};
  for (uint32_t p = 0; p < pages; p++) {
    uint32_t lpns[PER];
    draw_content(lpns, spread, seen);
    for (uint32_t i = 0; i < PER; i++) store[(p * PER + i) * 2] = lpns[i], store[(p * PER + i) * 2 + 1] = rnd();
  }
  // The loads already in flight: CMT entries, and Ghost-CMT entries with their bits set.
  for (uint32_t slot = 0; slot < ring - 1; slot++) {
    draw_content(&log[slot * PER], spread, seen);
    for (uint32_t i = 0; i < PER; i++) {
      uint32_t k = log[slot * PER + i];
      held[k] = (Held){slot * PER + i, rnd()};
      if (slot < ghost) bits[k / 64] |= 1ull << (k % 64), counts[k / 256]++;
    }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  uint64_t sum = 0;
  for (uint32_t r = 0; r < rounds; r++) {
    // Ring slots: this round's load, the CMT's oldest (its victims), the Ghost-CMT's oldest.
    const uint32_t load = (r + ring - 1) % ring, victims = (r + ghost) % ring, packed = r % ring;
    const uint32_t p = rnd() % pages;
    uint32_t *e = &store[(size_t)p * PER * 2], *in = &log[load * PER];
    const uint32_t *out = &log[victims * PER], *pk = &log[packed * PER];
    // Load: each entry's record and its log slot.
    if (runs && e[2 * (PER - 1)] - e[0] == PER - 1) {
      Held *h = &held[e[0]];
      for (uint32_t i = 0; i < PER; i++) h[i] = (Held){load * PER + i, e[2 * i + 1]}, in[i] = e[0] + i;
    } else {
      for (uint32_t i = 0; i < PER; i++) {
        __builtin_prefetch(&held[e[2 * ((i + 64) % PER)]], 1);
        held[e[2 * i]] = (Held){load * PER + i, e[2 * i + 1]};
        in[i] = e[2 * i];
      }
    }
    // The CMT's victims into the Ghost-CMT: their keys into the bitmap set, a word at a time.
    if (runs && out[PER - 1] - out[0] == PER - 1) {
      for (uint32_t k = out[0]; k <= out[PER - 1];) {
        uint32_t w = k / 64, last = out[PER - 1] / 64 == w ? out[PER - 1] % 64 : 63;
        uint64_t m = (~0ull >> (63 - last)) & (~0ull << (k % 64));
        bits[w] |= m, counts[w / 4] += __builtin_popcountll(m), k = w * 64 + 64;
      }
    } else {
      uint32_t w = out[0] / 64;
      uint64_t m = 0;
      for (uint32_t i = 0; i < PER; i++) {
        uint32_t k = out[i];
        if (k / 64 != w) bits[w] |= m, counts[w / 4] += __builtin_popcountll(m), w = k / 64, m = 0;
        m |= 1ull << (k % 64);
      }
      bits[w] |= m, counts[w / 4] += __builtin_popcountll(m);
    }
    // Packing: the Ghost-CMT's oldest load, read from the records into the page just freed.
    if (runs && pk[PER - 1] - pk[0] == PER - 1) {
      Held *h = &held[pk[0]];
      for (uint32_t i = 0; i < PER; i++) e[2 * i] = pk[0] + i, e[2 * i + 1] = h[i].ppn, sum += h[i].ppn, h[i] = (Held){NIL, p};
      for (uint32_t k = pk[0]; k <= pk[PER - 1];) {
        uint32_t w = k / 64, last = pk[PER - 1] / 64 == w ? pk[PER - 1] % 64 : 63;
        uint64_t m = (~0ull >> (63 - last)) & (~0ull << (k % 64));
        bits[w] &= ~m, counts[w / 4] -= __builtin_popcountll(m), k = w * 64 + 64;
      }
    } else {
      uint32_t w = pk[0] / 64;
      uint64_t m = 0;
      for (uint32_t i = 0; i < PER; i++) {
        __builtin_prefetch(&held[pk[(i + 64) % PER]], 1);
        uint32_t k = pk[i];
        Held h = held[k];
        e[2 * i] = k, e[2 * i + 1] = h.ppn, sum += h.ppn, held[k] = (Held){NIL, p};
        if (k / 64 != w) bits[w] &= ~m, counts[w / 4] -= __builtin_popcountll(m), w = k / 64, m = 0;
        m |= 1ull << (k % 64);
      }
      bits[w] &= ~m, counts[w / 4] -= __builtin_popcountll(m);
    }
  }
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
  double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("%s, spread %u: %.3f s for %u round trips (%.2f us each), checksum %llu\n", argv[1], spread, secs, rounds,
         secs / rounds * 1e6, (unsigned long long)sum);
  free(held), free(store), free(log), free(bits), free(counts), free(seen);
  return 0;
}
