/** A byte count as people read it ("812 B", "4.2 MB", "1.5 GB"): one wording for messages and the UI. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  // One decimal while it carries information ("4.2 MB"), none from 100 up ("812 MB"); never "4.0".
  return `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))} ${units[u]}`;
}
