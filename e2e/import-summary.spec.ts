/**
 * Issue 15, "Import messages": each import's summary is its own and true. A broken file is said
 * once to be added but unreadable (it is in the library; issue 32 item 12), a bad path beside a
 * good one is called what it is, and a lone bad path does not leave the last import's counts
 * beneath its error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

const CORPUS = CORPUS_JPG;

test('import summaries are each import’s own and true', async ({ app }) => {
  test.skip(app.target === 'electron', 'typing paths is browser mode; the Electron dialog cannot be driven');
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-summary-'));
  try {
    fs.copyFileSync(path.join(CORPUS, 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
    fs.writeFileSync(path.join(dir, 'broken.jpg'), 'this is not a JPEG at all');

    // A broken file is hashed and added; its metadata finds it unreadable, and the summary says so.
    // It is in the library (a tile marked unreadable), so it is said to be added, never "could not import".
    await page.getByRole('button', { name: 'Import photos…' }).click();
    const panel = await importFolder(page, app.target, dir);
    const summary = panel.getByRole('status').filter({ hasText: 'Import finished' });
    await expect(summary).toContainText('2 added (1 of them unreadable)');
    const unreadable = panel.getByTestId('import-unreadable-list');
    await expect(unreadable).toContainText('Added, but unreadable');
    await expect(unreadable).toContainText('broken.jpg');
    await expect(unreadable).toContainText('Not an image');
    await expect(panel.getByTestId('import-failed')).toHaveText('0');
    await expect(panel.getByTestId('import-error-list')).toHaveCount(0);
    await expect(page.getByTestId('photo-tile').filter({ hasText: 'broken.jpg' })).toHaveCount(1);
    await unreadable.scrollIntoViewIfNeeded();
    await app.shot('import-summary-unreadable');

    // A bad path beside a good one: "does not exist", never "disappeared during the import".
    await panel.getByLabel('Folder or file path on this computer').fill(`${dir}\n/no/such/folder/anywhere`);
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(panel.getByTestId('import-duplicates')).toHaveText('2');
    await expect(panel.getByTestId('import-progress')).toHaveAttribute('data-status', 'done');
    await expect(panel.getByTestId('import-failed')).toHaveText('1');
    await expect(panel.getByTestId('import-error-list')).toContainText('/no/such/folder/anywhere');
    await expect(panel.getByTestId('import-error-list')).toContainText('does not exist on this computer');
    await expect(panel.getByTestId('import-error-list')).not.toContainText('disappeared');
    await expect(panel.getByRole('status').filter({ hasText: 'Import finished' })).toHaveText(
      /0 added, 2 already in the library, 1 could not be imported\./,
    );
    await app.shot('import-summary-bad-path');

    // A lone bad path: its error alone, not the last import's counts beneath it.
    await panel.getByLabel('Folder or file path on this computer').fill('/no/such/folder/anywhere');
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(panel.getByRole('alert')).toContainText('does not exist');
    await expect(panel.getByTestId('import-progress')).toHaveCount(0);
    await app.shot('import-summary-lone-bad-path');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
