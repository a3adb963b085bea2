/**
 * The import picker. On Windows and Linux a dialog with both `openFile` and `openDirectory` is a
 * folder-only picker, so there the archivist first chooses what to import; macOS's panel takes
 * files and folders together.
 */
export type ImportChoice = 'files' | 'folders';

export const IMPORT_CHOICE_BUTTONS = ['Choose photos…', 'Choose a folder…', 'Cancel'] as const;

/** null: ask files-or-folders first; otherwise one dialog suffices. */
export function needsImportChoice(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin';
}

export function importDialogProperties(
  platform: NodeJS.Platform,
  choice: ImportChoice | 'both',
): ('openFile' | 'openDirectory' | 'multiSelections')[] {
  if (choice === 'both' && platform !== 'darwin') throw new Error('only macOS can pick files and folders in one dialog');
  if (choice === 'files') return ['openFile', 'multiSelections'];
  if (choice === 'folders') return ['openDirectory', 'multiSelections'];
  return ['openFile', 'openDirectory', 'multiSelections'];
}

/** Maps the choice dialog's button index to a choice (null: cancelled). */
export function importChoiceFromButton(index: number): ImportChoice | null {
  return index === 0 ? 'files' : index === 1 ? 'folders' : null;
}
