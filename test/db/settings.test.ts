import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/open';
import { SettingsStore, defaultSettings } from '../../src/main/settings/settings';
import { appPaths } from '../../src/main/app-paths';
import { tempDir } from '../support/core';

const open = (file: string) => openDatabase({ file, migrationsFolder: appPaths().migrations });

describe('settings', () => {
  it('reads defaults, keeps what is updated, and hands out copies', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    const settings = new SettingsStore(db);
    expect(settings.get()).toEqual(defaultSettings());
    settings.update({ defaultScanPolicy: 'originals', jobRetentionDays: 7 });
    const got = settings.get();
    expect(got).toMatchObject({ defaultScanPolicy: 'originals', jobRetentionDays: 7 });
    got.jobRetentionDays = 99; // a caller's copy, not the cache
    expect(settings.get().jobRetentionDays).toBe(7);
    await db.close();
  });

  it('sees a change committed by another connection to the same library (a headless runner beside the app)', async () => {
    const file = path.join(tempDir(), 'circa.db');
    const app = open(file);
    const runner = open(file);
    const appSettings = new SettingsStore(app);
    const runnerSettings = new SettingsStore(runner);
    expect(runnerSettings.get().defaultScanPolicy).toBe('detect'); // read and cached
    appSettings.update({ defaultScanPolicy: 'all_scans' });
    expect(runnerSettings.get().defaultScanPolicy).toBe('all_scans');
    appSettings.update({ defaultScanPolicy: 'detect' });
    expect(runnerSettings.get().defaultScanPolicy).toBe('detect');
    await runner.close();
    await app.close();
  });

  it('falls back to the default for a corrupt stored value', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    db.immediate(() =>
      db.sqlite.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('jobRetentionDays', '{oops', 0)").run(),
    );
    expect(new SettingsStore(db).get().jobRetentionDays).toBe(defaultSettings().jobRetentionDays);
    await db.close();
  });
});
