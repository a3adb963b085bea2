// History as evidence: Circa's sourced catalogue of named events and periods, the schema the
// archivist's own entries share with it, and the reader that finds them in captions.
export { HISTORY_CATALOGUE, HISTORY_CATALOGUE_VERSION, type CatalogueEntry } from './catalogue';
export {
  allNames,
  citeSource,
  entryEnd,
  entryStart,
  historyEntrySchema,
  historySourceSchema,
  HISTORY_LANGUAGES,
  type HistoryEntry,
  type HistoryLanguage,
  type HistorySource,
} from './history-entry';
export {
  CATALOGUE_ENTRIES,
  displayName,
  findHistoricalReferences,
  HISTORY_CONFIDENCE,
  sameWords,
  type HistoricalReading,
  type HistoryOrigin,
  type HistoryReadingKind,
  type ReadableEntry,
} from './find-historical-references';
export {
  MAX_OWN_HISTORY_ENTRIES,
  MAX_OWN_HISTORY_JSON_CHARS,
  ownHistoryEntriesSchema,
  ownHistoryViewSchema,
  type OwnHistoryView,
} from './own-entries';
