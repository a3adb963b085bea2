/** Library settings: one JSON value per key in the settings table, with defaults for what is unset. */
import os from 'node:os';
import type { LibraryDb } from '../db/open';
import { settingsSchema, type Settings } from '../../shared/contract';
import { assertUsableAiSettings } from '../../shared/ai/settings-check';
import { DEFAULT_OCR_LANGUAGES } from '../../shared/ocr-languages';

export function defaultSettings(): Settings {
  return {
    // One core stays free for main and the renderer.
    workerCount: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    jobRetentionDays: 30,
    // Scans, unless the EXIF names a camera: what an archive of scanned prints mostly holds.
    defaultScanPolicy: 'detect',
    aiBackend: 'heuristic',
    aiBaseUrl: '',
    aiModel: '',
    backupSchedule: 'daily',
    backupKeepDaily: 7,
    backupKeepWeekly: 4,
    backupDir: '',
    // Both readings of 7/4/1906 are kept until the archivist says how this collection writes dates.
    numericDateOrder: 'undecided',
    ocrLanguages: [...DEFAULT_OCR_LANGUAGES],
  };
}

const UPSERT =
  'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at';

export class SettingsStore {
  /**
   * The last settings read, and the database's data_version then. Jobs read settings on every
   * apply; a cached copy stays valid until this connection writes them (`update` drops it) or
   * another connection commits anything (a headless runner and the app may share a library).
   */
  private cached: { settings: Settings; dataVersion: number } | null = null;
  private readonly dataVersion;
  private readonly listeners: ((settings: Settings) => void)[] = [];

  constructor(private readonly db: LibraryDb) {
    this.dataVersion = db.sqlite.prepare('PRAGMA data_version').pluck();
  }

  get(): Settings {
    const dataVersion = this.dataVersion.get() as number;
    if (this.cached?.dataVersion === dataVersion) return { ...this.cached.settings };
    const settings = this.read();
    this.cached = { settings, dataVersion };
    return { ...settings };
  }

  private read(): Settings {
    const rows = this.db.sqlite.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    const stored: Record<string, unknown> = {};
    for (const r of rows) {
      try {
        stored[r.key] = JSON.parse(r.value);
      } catch {
        /* a corrupt value falls back to its default */
      }
    }
    const merged = { ...defaultSettings() } as Record<string, unknown>;
    for (const key of Object.keys(merged)) {
      const one = settingsSchema.shape[key as keyof Settings].safeParse(stored[key]);
      if (one.success) merged[key] = one.data;
    }
    return merged as Settings;
  }

  /** Saves a change; settings a job could not use (an AI backend without an address or model) are refused. */
  update(patch: Partial<Settings>): Settings {
    assertUsableAiSettings({ ...this.get(), ...patch });
    this.cached = null;
    this.db.immediate(() => {
      const put = this.db.sqlite.prepare(UPSERT);
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) put.run(k, JSON.stringify(v), Date.now());
    });
    const saved = this.get();
    for (const listener of this.listeners) listener({ ...saved });
    return saved;
  }

  /** Called after every change saved here (what applies live, such as the worker count, follows it). */
  onChange(listener: (settings: Settings) => void): void {
    this.listeners.push(listener);
  }

  /** Internal flags that are not user settings (e.g. `jobs.paused`). */
  getFlag<T>(key: string, fallback: T): T {
    const v = this.db.sqlite.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
    return v === undefined ? fallback : (JSON.parse(v) as T);
  }

  setFlag(key: string, value: unknown): void {
    this.db.immediate(() => this.db.sqlite.prepare(UPSERT).run(key, JSON.stringify(value), Date.now()));
  }
}
