/**
 * Keeping the archive: Back up now (from the Backups screen, and offered on the Jobs page), an
 * export of the library as CSV, JSON and XMP sidecars from the Export dialog, and a restore with
 * its confirmation — the library goes back to the backup and says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

const CORPUS = CORPUS_JPG;

function makeFolder(names: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-archive-e2e-'));
  for (const n of names) {
    fs.copyFileSync(path.join(CORPUS, n), path.join(dir, n));
    fs.chmodSync(path.join(dir, n), 0o644);
  }
  return dir;
}

test('backs up, exports CSV/JSON/XMP, and restores the backup', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const first = makeFolder(['Canon_40D.jpg', 'Nikon_D70.jpg']);
  const later = makeFolder(['Pentax_K10D.jpg']);
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-export-e2e-'));
  await importFolder(page, app.target, first);
  await expect(page.getByTestId('photo-count')).toHaveText('2 photos');

  // The Jobs page offers a backup among the jobs it can start.
  await page.getByRole('link', { name: /^Jobs/ }).click();
  const offered = await page.getByLabel('Job type to start').locator('option').allTextContents();
  expect(offered).toContain('Backup');

  // Back up now.
  await page.getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('heading', { name: 'Backups' })).toBeVisible();
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByTestId('backup-done')).toContainText('2 photos', { timeout: 30_000 });
  // (A scheduled backup may have run too: the app makes one a minute after it starts.)
  const rows = page.getByTestId('backup-row');
  const ofTwo = rows.filter({ has: page.locator('td.num', { hasText: /^2$/ }) }).first();
  await expect(ofTwo).toContainText('✓ Verified');
  await app.shot('backups-list');

  // More work after the backup.
  await page.getByRole('link', { name: 'Library' }).click();
  await importFolder(page, app.target, later);
  await expect(page.getByTestId('photo-count')).toHaveText('3 photos');

  // Export the whole library.
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog.getByLabel('The whole library (3 photos)')).toBeChecked();
  await dialog.getByLabel(/^XMP sidecars/).check();
  await dialog.getByLabel('Export folder').fill(exportDir);
  await app.shot('export-dialog');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByTestId('export-status')).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
  await expect(dialog.getByTestId('export-status')).toContainText('Exported 3 photos');
  await app.shot('export-done');
  const files = fs.readdirSync(exportDir).sort();
  expect(files.filter((f) => /^circa-export-\d{8}-\d{6}\.(csv|json)$/.test(f))).toHaveLength(2);
  const xmpDir = files.find((f) => f.endsWith('-xmp'))!;
  expect(fs.readdirSync(path.join(exportDir, xmpDir)).sort()).toEqual([
    'Canon_40D.jpg.xmp',
    'Nikon_D70.jpg.xmp',
    'Pentax_K10D.jpg.xmp',
  ]);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Restore the backup: the library goes back to two photos.
  await page.getByRole('link', { name: 'Backups' }).click();
  await expect(ofTwo).toBeVisible(); // the list has loaded before it is counted
  const before = await rows.count();
  await ofTwo.getByRole('button', { name: 'Restore…' }).click();
  const confirm = page.getByTestId('restore-dialog');
  await expect(confirm).toContainText('2 photos');
  await expect(confirm).toContainText('kept as a safety copy');
  await app.shot('restore-confirm');
  await confirm.getByRole('button', { name: 'Restore library' }).click();
  await expect(page.getByTestId('restore-report')).toContainText('Restored 2 photos', { timeout: 60_000 });
  await expect(page.getByTestId('restore-report')).toContainText('kept as circa-');
  // The safety copy is listed beside the backups.
  await expect(rows.filter({ hasText: 'Before a restore' })).toHaveCount(1);
  await expect(rows).toHaveCount(before + 1);
  await app.shot('backups-restored');
  await page.getByRole('link', { name: 'Library' }).click();
  await expect(page.getByTestId('photo-count')).toHaveText('2 photos');
});
