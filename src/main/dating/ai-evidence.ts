/**
 * What a visual analysis says about a photo's date. Machine dating is weak evidence (published
 * models are off by ~7 years on average): the analysis becomes one low-confidence estimate with its
 * clues kept as details for the archivist to weigh.
 */
import { yearEnd, yearStart } from '../../shared/dating';
import type { AiAnalysis } from '../../shared/ai/schema';
import type { NewEvidence } from '../evidence/evidence-store';

function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (m ? m[1] : text).trim();
}

export function aiEvidence(a: AiAnalysis): NewEvidence[] {
  if (a.earliestYear == null && a.latestYear == null) return [];
  const who = a.model ? `${a.backend} (${a.model})` : a.backend;
  return [
    {
      kind: 'estimate',
      earliest: a.earliestYear != null ? yearStart(a.earliestYear) : null,
      latest: a.latestYear != null ? yearEnd(a.latestYear) : null,
      precision: 'year',
      confidence: a.confidence,
      // The first sentence reads well in lists and explanations; the whole text stays in the details.
      summary: `Visual analysis by ${who}: ${firstSentence(a.summary)}`.slice(0, 300),
      details: { backend: a.backend, model: a.model, summary: a.summary, clues: a.clues },
    },
  ];
}
