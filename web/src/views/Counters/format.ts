/** Formats a counter for display: ratios with 3 decimals, times with 1, counts grouped. */
export function formatCounter(name: string, v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (name === 'waf') return v === 0 ? '–' : v.toFixed(3);
  if (name.endsWith('_us')) return v.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  return Math.round(v).toLocaleString('en-US');
}
