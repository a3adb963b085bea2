/**
 * Issue 15, moved files: importing a folder again marks the photos whose files left it missing,
 * and importing a moved file relinks its photo (found by content), with everything known about it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

const CORPUS = CORPUS_JPG;

test('a moved file is marked missing, then relinked by importing it from its new place', async ({ app }) => {
  test.skip(app.target === 'electron', 'typing paths is browser mode; the Electron dialog cannot be driven');
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-relink-'));
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-moved-'));
  try {
    for (const name of ['Canon_40D.jpg', 'Nikon_D70.jpg']) fs.copyFileSync(path.join(CORPUS, name), path.join(dir, name));
    await page.getByRole('button', { name: 'Import photos…' }).click();
    let panel = await importFolder(page, app.target, dir);
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(2);
    const canon = tiles.filter({ hasText: 'Canon_40D.jpg' });
    await expect(canon).not.toHaveAttribute('data-status', 'pending');

    // The file moves; importing its old folder again says it is no longer there.
    fs.renameSync(path.join(dir, 'Canon_40D.jpg'), path.join(elsewhere, 'Canon_40D.jpg'));
    panel = await importFolder(page, app.target, dir);
    await expect(panel.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
      '1 no longer there (marked missing)',
    );
    await expect(canon.getByText('Missing', { exact: true })).toBeVisible();
    await app.shot('relink-missing');

    // Importing it from where it went relinks the same photo: no second tile, no Missing badge.
    panel = await importFolder(page, app.target, elsewhere);
    await expect(panel.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
      '1 found at a new place (relinked)',
    );
    await expect(tiles).toHaveCount(2);
    await expect(canon.getByText('Missing', { exact: true })).toHaveCount(0);
    await app.shot('relink-found');
    await canon.dblclick();
    await expect(page.getByTestId('photo-path')).toHaveText(path.join(elsewhere, 'Canon_40D.jpg'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});
