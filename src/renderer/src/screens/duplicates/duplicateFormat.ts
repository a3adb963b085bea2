/** Words the Duplicates screen uses for pairs and copies. */
import type { DuplicateGroup, DuplicateMember, DuplicateView } from '../../../../shared/duplicates/contract';
import type { MatchedBy } from '../../../../shared/duplicates/hash-set';
import { formatBytes, plural } from '../../format';

export const VIEW_LABEL: Record<DuplicateView, string> = {
  unreviewed: 'To review',
  confirmed: 'Same photograph',
  different: 'Not the same',
};

/** How two copies matched (which of their hashes were close). */
export const MATCHED_BY_LABEL: Record<MatchedBy, string> = {
  full: 'whole picture',
  content: 'inside the border',
  centre: 'centre of the picture',
  corner: 'one copy cropped',
};

export function pairLabel(p: DuplicateGroup['pairs'][number], names: Map<number, string>): string {
  const who = `${names.get(p.a) ?? `#${p.a}`} ↔ ${names.get(p.b) ?? `#${p.b}`}`;
  if (p.distance == null) return `${who}: not found by a scan`;
  const how = p.matchedBy ? ` (${MATCHED_BY_LABEL[p.matchedBy]})` : '';
  return `${who}: ${p.distance === 0 ? 'identical hashes' : `${plural(p.distance, 'bit')} of 64 apart`}${how}`;
}

export function dimensions(m: DuplicateMember): string {
  return m.displayWidth && m.displayHeight ? `${m.displayWidth} × ${m.displayHeight} px` : 'size unknown';
}

export function fileFacts(m: DuplicateMember): string {
  return [dimensions(m), formatBytes(m.size), m.format?.toUpperCase()].filter(Boolean).join(' · ');
}

export function evidenceLine(m: DuplicateMember): string {
  const { accepted, pending, rejected } = m.evidence;
  if (!accepted && !pending && !rejected) return 'none yet';
  return [accepted && `${accepted} accepted`, pending && `${pending} pending`, rejected && `${rejected} rejected`]
    .filter(Boolean)
    .join(' · ');
}
