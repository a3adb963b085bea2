import { weakClueCount } from './dating/clue-words';

/**
 * The few words a photo's date gets where space is short (the grid's tiles): its DACS date, or
 * "undated", and then how many clues wait beside it — "undated · 1 weak clue". Clues never show as
 * a date (src/shared/dating/clue-rule.ts).
 */
export function estimateCaption(p: { estimateLabel: string | null; clueCount: number }): string {
  if (p.estimateLabel) return p.estimateLabel;
  return p.clueCount > 0 ? `undated · ${weakClueCount(p.clueCount)}` : 'undated';
}
