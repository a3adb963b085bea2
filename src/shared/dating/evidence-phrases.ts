// Short phrases that name evidence in explanations and conflict reasons.
import type { EvidenceInput } from './types';
import { describeEnd, describeStart } from './format';

/** "#3 (Caption reads 'Xmas 1942')", or "#3" when there is no summary. */
export function cite(item: Pick<EvidenceInput, 'id' | 'summary'>): string {
  const summary = item.summary.trim();
  return summary ? `#${item.id} (${summary})` : `#${item.id}`;
}

export function citeAll(items: Pick<EvidenceInput, 'id' | 'summary'>[]): string {
  return items.map(cite).join(', ');
}

export function listIds(ids: number[]): string {
  return ids.map((id) => `#${id}`).join(', ');
}

/** What a bound says, quoted: 'not before 1950', 'not after 1942', 'between 1935 and 1942'. */
export function describeBound(item: Pick<EvidenceInput, 'earliest' | 'latest' | 'precision'>): string {
  const { earliest, latest, precision } = item;
  const start = (n: number) => describeStart(n, precision?.earliest);
  const end = (n: number) => describeEnd(n, precision?.latest);
  if (earliest !== null && latest !== null) return `'between ${start(earliest)} and ${end(latest)}'`;
  if (earliest !== null) return `'not before ${start(earliest)}'`;
  if (latest !== null) return `'not after ${end(latest)}'`;
  return `'no limit'`;
}
