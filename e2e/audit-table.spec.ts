/**
 * Issue 15, "an audit table clipped on the right": a job's details (its facts, its history table,
 * its technical details) fit their panel at laptop sizes — long values (a deep path, an error
 * naming it) wrap inside the panel; nothing is cut off or pushes the panel sideways.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder, overflowing } from './helpers';

const CORPUS = CORPUS_JPG;

test('a failed job with long values fits its details panel at 1280×800 and 1024×768', async ({ app }) => {
  test.skip(app.target === 'electron', 'typing paths is browser mode');
  const { page } = app;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-audit-'));
  const deep = path.join(
    root,
    'Collections_and_Archives_Department',
    'Photographs_Scanned_2024_Batch_Number_Seventeen_Box_12_Folder_3',
  );
  fs.mkdirSync(deep, { recursive: true });
  fs.copyFileSync(
    path.join(CORPUS, 'Canon_40D.jpg'),
    path.join(deep, 'Portrait_of_an_unknown_family_outside_the_general_store.jpg'),
  );
  try {
    await page.getByRole('button', { name: 'Import photos…' }).click();
    const panel = await importFolder(page, app.target, root);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tile = page.getByTestId('photo-tile').first();
    await expect(tile).not.toHaveAttribute('data-status', 'pending');
    // The file goes; reading it again fails, naming the long path.
    fs.rmSync(path.join(root, 'Collections_and_Archives_Department'), { recursive: true });
    await tile.dblclick();
    await page.getByRole('button', { name: 'Re-run metadata' }).click();
    await expect(page.getByTestId('photo-job').first()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });

    await page.getByRole('link', { name: /^Jobs/ }).click();
    await page.getByTestId('job-row').filter({ hasText: 'Metadata' }).first().click();
    const details = page.getByTestId('job-details');
    await expect(details.getByTestId('details-error')).toContainText('File not found at');
    const pane = page.locator('.jobs-details-pane');
    for (const [width, height] of [
      [1280, 800],
      [1024, 768],
    ]) {
      await page.setViewportSize({ width, height });
      await expect(details.getByTestId('job-history')).toContainText('Failed');
      await app.shot(`audit-table-${width}`);
      expect(await overflowing(pane), `${width}×${height}`).toEqual([]);
      await details.getByTestId('job-advanced').locator('summary').click();
      await details.locator('pre.payload').last().scrollIntoViewIfNeeded();
      await app.shot(`audit-table-${width}-technical`);
      expect(await overflowing(pane), `${width}×${height}, technical details open`).toEqual([]);
      await details.getByTestId('job-advanced').locator('summary').click();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
