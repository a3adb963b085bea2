/**
 * The archivist's first hour: import a folder, watch photos and thumbnails fill the grid, open a
 * photo and read its metadata, re-run it, select with mouse and keyboard, import again (nothing
 * is added twice).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

const CORPUS = CORPUS_JPG;

/** Canon_40D.jpg and the 16 orientation samples (plus their README, which is skipped). */
function makeFolder(): { dir: string; images: number; others: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-import-'));
  const copy = (from: string, to: string) => {
    fs.copyFileSync(from, to);
    fs.chmodSync(to, 0o644);
  };
  copy(path.join(CORPUS, 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
  fs.mkdirSync(path.join(dir, 'orientation'));
  let images = 1;
  let others = 0;
  for (const name of fs.readdirSync(path.join(CORPUS, 'orientation'))) {
    copy(path.join(CORPUS, 'orientation', name), path.join(dir, 'orientation', name));
    if (name.endsWith('.jpg')) images++;
    else others++;
  }
  return { dir, images, others };
}

const loadedThumbs = (page: Page) =>
  page
    .getByTestId('photo-thumb')
    .evaluateAll(
      (imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length,
    );

test('imports a folder, browses the grid, opens a photo, re-runs its metadata, and imports again', async ({ app }) => {
  const { page } = app;
  const { dir, images, others } = makeFolder();
  try {
    // An empty library says so, with the way in.
    await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
    await expect(page.getByText('This library has no photos yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Import photos…' }).click();

    const panel = await importFolder(page, app.target, dir);
    await expect(panel.getByTestId('import-found')).toHaveText(String(images));
    await expect(panel.getByTestId('import-added')).toHaveText(String(images));
    await expect(panel.getByTestId('import-skipped')).toHaveText(String(others));
    await expect(panel.getByTestId('import-failed')).toHaveText('0');

    // Photos appear, then their thumbnails as the metadata jobs finish.
    const grid = page.getByTestId('photo-grid');
    const tiles = grid.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(images);
    await expect(page.getByTestId('photo-count')).toHaveText(`${images} photos`);
    await expect.poll(() => loadedThumbs(page), { timeout: 30_000 }).toBe(images);
    await expect(grid.locator('[data-status="pending"]')).toHaveCount(0);
    await app.shot('import-panel');

    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    await expect(panel).toBeHidden();
    await app.shot('library-grid');

    // Search narrows the grid (debounced), and clearing it brings everything back.
    await page.getByLabel('Search filenames').fill('portrait');
    await expect(tiles).toHaveCount(8);
    await expect(page.getByTestId('photo-count')).toContainText('8 photos');
    await page.getByLabel('Search filenames').fill('');
    await expect(tiles).toHaveCount(images);

    // Open the Canon photo (Enter on the focused tile) and read what its file says.
    const canon = tiles.filter({ hasText: 'Canon_40D.jpg' });
    await canon.click();
    await expect(canon).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/photo\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Canon_40D.jpg' })).toBeVisible();
    await expect(page.getByTestId('fact-camera')).toHaveText('Canon EOS 40D');
    await expect(page.getByTestId('photo-dates')).toContainText('2008:05:30 15:56:01');
    await expect(page.getByTestId('photo-path')).toHaveText(path.join(dir, 'Canon_40D.jpg'));
    await expect
      .poll(() => page.getByTestId('photo-original').evaluate((i) => (i as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByTestId('evidence-area')).toBeVisible();

    // Re-run metadata: a second job appears and reaches Succeeded, live.
    const jobs = page.getByTestId('photo-job');
    await expect(jobs).toHaveCount(1);
    await expect(jobs.first()).toHaveAttribute('data-status', 'success');
    await page.getByRole('button', { name: 'Re-run metadata' }).click();
    await expect(jobs).toHaveCount(2);
    await expect(jobs.first()).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    await expect(jobs.first()).toContainText('Succeeded');
    await app.shot('photo');

    // Escape goes back to the grid, which kept its place and has the keyboard.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
    await expect(grid).toBeFocused();

    // Keyboard selection: Space toggles, Shift+arrow extends, Ctrl+A selects all, Escape clears.
    const bar = page.getByTestId('selection-bar');
    await expect(bar).toContainText('1 selected'); // the Canon, still selected
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Space');
    await expect(bar).toContainText('1 selected');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const columns = Number(await grid.getAttribute('data-columns'));
    await expect(bar).toContainText(`${columns + 2} selected`);
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
    await page.keyboard.press('Control+a');
    await expect(bar).toContainText(`${images} selected`);
    await bar.getByRole('button', { name: 'Re-run metadata' }).click();
    await expect(bar.getByRole('status')).toHaveText(/^\d+ started, \d+ already running$/);
    await app.shot('library-selection');
    await bar.getByRole('button', { name: 'Clear' }).click();
    await expect(bar).toBeHidden();

    // Mouse selection: Ctrl-click adds, Shift-click selects a range.
    await tiles.nth(0).click();
    await tiles.nth(2).click({ modifiers: ['Shift'] });
    await expect(bar).toContainText('3 selected');
    await tiles.nth(5).click({ modifiers: ['Control'] });
    await expect(bar).toContainText('4 selected');
    await page.keyboard.press('Escape');

    // Importing the same folder again adds nothing and counts every file as a duplicate.
    await page.getByRole('button', { name: 'Import…' }).click();
    const again = await importFolder(page, app.target, dir);
    await expect(again.getByTestId('import-added')).toHaveText('0');
    await expect(again.getByTestId('import-duplicates')).toHaveText(String(images));
    await expect(again.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
      `${images} already in the library`,
    );
    await expect(page.getByTestId('photo-count')).toHaveText(`${images} photos`);
    await expect(tiles).toHaveCount(images);
    await app.shot('import-duplicates');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown import path is explained instead of failing silently', async ({ app }) => {
  const { page } = app;
  if (app.target === 'electron') {
    // The app imports through its file dialog, which cannot be driven; the same call answers with a typed error.
    const r = await page.evaluate(() => window.circa!.call('photos.import', { paths: ['/no/such/folder/anywhere'] }));
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('does not exist') } });
    return;
  }
  await page.getByRole('button', { name: 'Import…' }).click();
  const panel = page.getByTestId('import-panel');
  await panel.getByLabel('Folder or file path on this computer').fill('/no/such/folder/anywhere');
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(panel.getByRole('alert')).toContainText('does not exist');
});

test('an import names every file it skips, with why', async ({ app }) => {
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-skips-'));
  fs.copyFileSync(path.join(CORPUS, 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
  for (const f of ['IMG_0412.HEIC', 'IMG_0413.HEIC']) fs.writeFileSync(path.join(dir, f), Buffer.alloc(64));
  fs.writeFileSync(path.join(dir, 'box-12 inventory.txt'), 'box 12');
  fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd-link.jpg'));
  execFileSync('mkfifo', [path.join(dir, 'scanner-pipe.jpg')]);
  try {
    const panel = await importFolder(page, app.target, dir);
    await expect(panel.getByTestId('import-added')).toHaveText('1');
    await expect(panel.getByTestId('import-skipped')).toHaveText('5');
    const list = panel.getByTestId('import-skipped-list');
    await expect(list.getByRole('listitem')).toHaveCount(5);
    await expect(list.getByRole('listitem').filter({ hasText: 'IMG_0412.HEIC' })).toContainText('convert it to JPEG or TIFF');
    await expect(list.getByRole('listitem').filter({ hasText: 'passwd-link.jpg' })).toContainText('outside the imported folder');
    await expect(list.getByRole('listitem').filter({ hasText: 'scanner-pipe.jpg' })).toContainText('named pipe');
    await expect(panel.getByRole('status')).toContainText('2 HEIC/HEIF — convert to JPEG or TIFF');
    await list.scrollIntoViewIfNeeded();
    await app.shot('import-skipped');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('importing the whole disk asks first', async ({ app }) => {
  const { page } = app;
  if (app.target === 'electron') {
    const r = await page.evaluate(() => window.circa!.call('photos.import', { paths: ['/'] }));
    expect(r).toMatchObject({ ok: false, error: { code: 'needs_confirmation' } });
    return;
  }
  await page.getByRole('button', { name: 'Import…' }).click();
  const panel = page.getByTestId('import-panel');
  await panel.getByLabel('Folder or file path on this computer').fill('/');
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const question = panel.getByRole('alertdialog');
  await expect(question).toContainText('contains your whole home folder');
  await expect(question.getByRole('button', { name: 'Import anyway' })).toBeVisible();
  await app.shot('import-confirm');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  await expect(panel.getByTestId('import-progress')).toHaveCount(0);
});
