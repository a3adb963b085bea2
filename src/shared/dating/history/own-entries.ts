// The archivist's own entries, as they travel over the contract and as they are kept in the
// library (settings key `history.ownEntries`): the catalogue's schema, at most a few hundred,
// each id once. Exported in the catalogue's own file format, so a list can be read back or shared.
import { z } from 'zod';
import { historyEntrySchema } from './history-entry';

export const MAX_OWN_HISTORY_ENTRIES = 500;
/** The whole list as JSON, in characters: what one save may carry (at most 3 bytes each, under the wire's 4 MiB frame). */
export const MAX_OWN_HISTORY_JSON_CHARS = 1_000_000;

export const ownHistoryEntriesSchema = z
  .array(historyEntrySchema)
  .max(MAX_OWN_HISTORY_ENTRIES)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      if (seen.has(e.id)) ctx.addIssue({ code: 'custom', message: `the id "${e.id}" is used twice`, path: [i, 'id'] });
      seen.add(e.id);
    });
    if (JSON.stringify(entries).length > MAX_OWN_HISTORY_JSON_CHARS) {
      ctx.addIssue({ code: 'custom', message: `the entries are longer than ${MAX_OWN_HISTORY_JSON_CHARS} characters in all` });
    }
  });

/** What Settings shows: the archivist's entries, and which catalogue they are read beside. */
export const ownHistoryViewSchema = z.object({
  entries: ownHistoryEntriesSchema,
  catalogue: z.object({ entries: z.number().int(), version: z.string() }),
  /** Entries kept in the library that no longer pass the schema: kept, not read, shown so nothing is lost silently. */
  unreadable: z.number().int(),
});
export type OwnHistoryView = z.infer<typeof ownHistoryViewSchema>;
