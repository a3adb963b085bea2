/** Where a library lives and what is inside it. A library is a folder; circa.db is its heart. */
import os from 'node:os';
import path from 'node:path';

export interface LibraryPaths {
  dir: string;
  dbFile: string;
  thumbnailsDir: string;
  backupsDir: string;
  /** Zoom views (tile pyramids), one folder per photo by content hash; made on demand, safe to delete. */
  previewsDir: string;
  /** The key that signs the audit ledger's head; outside the database on purpose (audit/signing.ts). */
  auditKeyFile: string;
  /** The furthest event the ledger has signed, beside the key, so a rolled-back database shows (audit/rollback-counter.ts). */
  auditCounterFile: string;
  /** Browser mode's port and token, kept so a restart comes back at the same address (owner-only). */
  browserAddressFile: string;
}

export function libraryPaths(dir: string): LibraryPaths {
  const abs = path.resolve(dir);
  return {
    dir: abs,
    dbFile: path.join(abs, 'circa.db'),
    thumbnailsDir: path.join(abs, 'thumbnails'),
    backupsDir: path.join(abs, 'backups'),
    previewsDir: path.join(abs, 'previews'),
    auditKeyFile: path.join(abs, 'audit.key'),
    auditCounterFile: path.join(abs, 'audit.counter'),
    browserAddressFile: path.join(abs, 'browser.json'),
  };
}

/**
 * `--library DIR` wins, then `CIRCA_LIBRARY`, then the default (the app's user-data folder in
 * Electron; a per-user folder under plain Node).
 */
export function resolveLibraryDir(opts: { argv: readonly string[]; env: NodeJS.ProcessEnv; defaultDir?: string }): string {
  const i = opts.argv.findIndex((a) => a === '--library' || a.startsWith('--library='));
  if (i >= 0) {
    const arg = opts.argv[i];
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : opts.argv[i + 1];
    if (!value) throw new Error('--library needs a folder path');
    return path.resolve(value);
  }
  if (opts.env.CIRCA_LIBRARY) return path.resolve(opts.env.CIRCA_LIBRARY);
  return opts.defaultDir ?? defaultNodeLibraryDir(opts.env);
}

function defaultNodeLibraryDir(env: NodeJS.ProcessEnv): string {
  const base =
    process.platform === 'darwin'
      ? path.join(os.homedir(), 'Library', 'Application Support')
      : process.platform === 'win32'
        ? (env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'))
        : (env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'));
  return path.join(base, 'Circa', 'Library');
}
