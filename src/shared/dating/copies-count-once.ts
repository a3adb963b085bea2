// Copies count once. A finding carried from one copy of a photograph to another (source
// 'duplicate') is the same evidence as the copy's own finding that says the same thing: the
// caption of a print read on two scans is one caption. Counted twice, it would make the estimate
// more certain only because the group has more copies (combine-estimates.ts reads estimates as
// independent). So among findings of the same origin source, kind and dates, the carried ones
// count only when nothing else says it, and then once.
import type { EvidenceInput } from './types';

export interface Repeat {
  item: EvidenceInput;
  /** The finding it repeats, which counts in its place. */
  sameAs: EvidenceInput;
}

const findingKey = (i: EvidenceInput) => `${i.originSource ?? i.source}|${i.kind}|${i.earliest}|${i.latest}`;

/** `items` sorted by id; the result keeps that order. */
export function countCopiesOnce(items: EvidenceInput[]): { counted: EvidenceInput[]; repeats: Repeat[] } {
  // Most photos have nothing carried from a copy: then everything counts, with no keys to build
  // (a rebuild estimates every photo of the library).
  if (!items.some((i) => i.source === 'duplicate')) return { counted: items, repeats: [] };
  const groups = new Map<string, EvidenceInput[]>();
  for (const item of items) {
    const key = findingKey(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const dropped = new Map<number, EvidenceInput>();
  for (const group of groups.values()) {
    const carried = group.filter((i) => i.source === 'duplicate');
    if (group.length < 2 || carried.length === 0) continue;
    const own = group.filter((i) => i.source !== 'duplicate');
    // The copy's own finding stands; else the most confident carried one (the lowest id on a tie).
    const stands = own[0] ?? [...carried].sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0) || a.id - b.id)[0];
    for (const item of carried) if (item !== stands) dropped.set(item.id, stands);
  }
  return {
    counted: items.filter((i) => !dropped.has(i.id)),
    repeats: items.filter((i) => dropped.has(i.id)).map((item) => ({ item, sameAs: dropped.get(item.id)! })),
  };
}
