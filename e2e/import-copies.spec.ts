/**
 * Issue 32, item 12: an import names each copy it did not add and the file kept in its place, and
 * bulk OCR or analysis sent to photos whose files are unreadable skips them with a count instead
 * of failing each one with the decoder's words.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

test('an import names the copy it skipped and the one it kept', async ({ app }) => {
  const { page } = app;
  const first = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-copies-a-'));
  const second = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-copies-b-'));
  try {
    fs.copyFileSync(path.join(CORPUS_JPG, 'Canon_40D.jpg'), path.join(first, 'Canon_40D.jpg'));
    fs.copyFileSync(path.join(CORPUS_JPG, 'Canon_40D.jpg'), path.join(second, 'box 12 copy.jpg'));
    fs.copyFileSync(path.join(CORPUS_JPG, 'Nikon_D70.jpg'), path.join(second, 'Nikon_D70.jpg'));

    await page.getByRole('button', { name: 'Import photos…' }).click();
    await importFolder(page, app.target, first);
    const panel = await importFolder(page, app.target, second);
    await expect(panel.getByTestId('import-duplicates')).toHaveText('1');
    const copies = panel.getByTestId('import-duplicate-list');
    await expect(copies).toContainText('Copies not added');
    await expect(copies.getByRole('listitem')).toHaveCount(1);
    await expect(copies).toContainText(path.join(second, 'box 12 copy.jpg'));
    await expect(copies).toContainText(`same as ${path.join(first, 'Canon_40D.jpg')}`);
    await copies.scrollIntoViewIfNeeded();
    await app.shot('import-copies-named');
  } finally {
    fs.rmSync(first, { recursive: true, force: true });
    fs.rmSync(second, { recursive: true, force: true });
  }
});

test('bulk OCR and analysis skip unreadable photos with a count', async ({ app }) => {
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-unreadable-'));
  try {
    fs.copyFileSync(path.join(CORPUS_JPG, 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
    fs.writeFileSync(path.join(dir, 'broken-1.jpg'), 'this is not a JPEG at all');
    fs.writeFileSync(path.join(dir, 'broken-2.jpg'), 'nor is this');

    await page.getByRole('button', { name: 'Import photos…' }).click();
    const panel = await importFolder(page, app.target, dir);
    await expect(panel.getByRole('status').filter({ hasText: 'Import finished' })).toContainText('(2 of them unreadable)');
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    await expect(page.locator('[data-testid="photo-tile"][data-status="failed"]')).toHaveCount(2);

    await page.getByTestId('photo-grid').focus();
    await page.keyboard.press('Control+a');
    for (const [type, label] of [
      ['ocr', /^Re-run/],
      ['ai_analysis', /^Re-run/],
    ] as const) {
      await page.getByLabel('What to re-run').selectOption(type);
      await page.getByRole('button', { name: label }).click();
      const said = page.getByRole('status').filter({ hasText: 'skipped' });
      await expect(said).toContainText('1 started');
      await expect(said).toContainText('2 photos skipped: their files could not be read as an image');
    }
    await app.shot('bulk-rerun-unreadable-skipped');

    // No job was queued for the unreadable photos: the Jobs screen shows no OCR or analysis failure.
    await page.getByRole('link', { name: /^Jobs/ }).click();
    await expect(page.getByTestId('job-row').filter({ hasText: 'OCR' })).toHaveCount(1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
