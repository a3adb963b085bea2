/**
 * What only the desktop shell can do (native dialogs, the file manager); absent in browser mode.
 * A leaf module: the features that offer a dialog take it without knowing the core that wires it.
 */
export interface ShellHooks {
  chooseImportPaths?(): Promise<string[] | null>;
  /** A file, with the system dialog (null: cancelled). */
  chooseFile?(title: string): Promise<string | null>;
  /** A folder for an export, with the system dialog (null: cancelled). */
  chooseFolder?(title: string): Promise<string | null>;
  revealInFolder?(path: string): void;
  /** A native yes/no question (e.g. "import a whole disk?"); resolves true for `yes`. */
  confirm?(message: string, yes: string): Promise<boolean>;
}
