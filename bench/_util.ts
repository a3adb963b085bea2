/** Small helpers shared by the benchmarks (files starting with _ are not benchmarks). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** `--name value` from the benchmark's arguments, as a number. */
export function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The p-th percentile (nearest rank) of a list of numbers. */
export function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
