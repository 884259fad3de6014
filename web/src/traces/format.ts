/** Number formatting for trace statistics. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 1536 → "1.5 KiB". */
export function bytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${UNITS[u]}`;
}

/** Nanoseconds → "12.3 ms" / "4.5 s" / "2.1 min". */
export function duration(ns: number): string {
  if (ns < 1e3) return `${ns} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(1)} ms`;
  if (ns < 120e9) return `${(ns / 1e9).toFixed(1)} s`;
  if (ns < 7200e9) return `${(ns / 60e9).toFixed(1)} min`;
  return `${(ns / 3600e9).toFixed(1)} h`;
}

/** 0.1234 → "12.3 %". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** 1234567 → "1,234,567". */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
