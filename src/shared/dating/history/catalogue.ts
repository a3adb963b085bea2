// Circa's catalogue of named events and periods: one data file per family (wars, royal occasions,
// world's fairs, Olympic Games, disasters, milestones, periods, yearly commemorations), each
// versioned and every entry sourced. Validated when loaded, so a bad edit fails loudly in tests and
// never reaches a reading.
import { z } from 'zod';
import { historyEntrySchema, type HistoryEntry } from './history-entry';
import wars from './data/wars.json';
import royal from './data/royal.json';
import fairs from './data/fairs.json';
import olympics from './data/olympics.json';
import disasters from './data/disasters.json';
import milestones from './data/milestones.json';
import periods from './data/periods.json';
import commemorations from './data/commemorations.json';

export const historyFamilyFileSchema = z
  .object({
    family: z.string().regex(/^[a-z]+$/),
    /** Raised whenever an entry is added, removed or corrected. */
    version: z.number().int().positive(),
    entries: z.array(historyEntrySchema).min(1),
  })
  .strict();
export type HistoryFamilyFile = z.infer<typeof historyFamilyFileSchema>;

export const HISTORY_FAMILY_FILES: readonly unknown[] = [
  wars,
  royal,
  fairs,
  olympics,
  disasters,
  milestones,
  periods,
  commemorations,
];

export interface CatalogueEntry extends HistoryEntry {
  family: string;
}

function load(): { entries: CatalogueEntry[]; version: string } {
  const files = HISTORY_FAMILY_FILES.map((f) => historyFamilyFileSchema.parse(f));
  return {
    entries: files.flatMap((f) => f.entries.map((e) => ({ ...e, family: f.family }))),
    // "wars@1,royal@1,…": which edition of each family a reading came from.
    version: files.map((f) => `${f.family}@${f.version}`).join(','),
  };
}

const loaded = load();

/** Every entry of Circa's catalogue, with its family. */
export const HISTORY_CATALOGUE: readonly CatalogueEntry[] = loaded.entries;
/** The catalogue's edition, as stored with each reading. */
export const HISTORY_CATALOGUE_VERSION: string = loaded.version;
