/** A confidence (0…1) as people read it: "40%". One wording for evidence, summaries and the UI. */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
