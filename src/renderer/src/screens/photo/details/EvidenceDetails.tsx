/**
 * A finding's details, in full: one component per source, each given its source's typed details
 * (src/shared/evidence-details.ts) — nothing here guesses at an untyped record.
 */
import type { EvidenceItem } from '../../../../../shared/contract';
import { AiDetails } from './AiDetails';
import { DuplicateDetails } from './DuplicateDetails';
import { ExifDetails } from './ExifDetails';
import { NoteDetails } from './NoteDetails';
import { OcrDetails } from './OcrDetails';

function body(item: EvidenceItem) {
  if (!item.details) return null;
  switch (item.source) {
    case 'ocr':
      return <OcrDetails details={item.details} />;
    case 'exif':
      return <ExifDetails details={item.details} />;
    case 'ai':
      return <AiDetails details={item.details} />;
    case 'duplicate':
      return <DuplicateDetails details={item.details} />;
    case 'note':
      return <NoteDetails details={item.details} />;
    case 'manual':
      // A manual constraint's summary already says everything (its note included).
      return null;
  }
}

export function EvidenceDetails({ item }: { item: EvidenceItem }) {
  const content = body(item);
  if (!content) return null;
  return (
    <details className="ev-details">
      <summary>Details</summary>
      {content}
    </details>
  );
}
