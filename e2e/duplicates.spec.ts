/**
 * Finding the same photograph in different scans: import copies (a resized scan, a print with its
 * border, a crop), let the scan run by itself, filter the library to unreviewed duplicates, review
 * the groups from the keyboard (preferred original, same photograph, not the same, undo), and see
 * an accepted date of one copy proposed on another.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeVariants } from '../test/support/duplicate-variants';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';

const EXIF_ORG = path.join(CORPUS_JPG, 'exif-org');

async function makeFolder(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-dupes-'));
  const write = async (source: string, name: string, transforms: Parameters<typeof makeVariants>[1]) => {
    const copies = await makeVariants(path.join(EXIF_ORG, source), transforms);
    for (const t of transforms!) fs.writeFileSync(path.join(dir, `${name}-${t}.jpg`), copies[t]);
  };
  await write('canon-ixus.jpg', 'flowers', ['original', 'resize', 'border']);
  await write('nikon-e950.jpg', 'harbour', ['original', 'crop5side']);
  await write('sony-d700.jpg', 'dog', ['original']);
  await write('kodak-dc240.jpg', 'kitchen', ['original']);
  return dir;
}

test('scan, review groups from the keyboard, and an accepted date travels to the other copies', async ({ app }) => {
  test.setTimeout(180_000);
  const { page } = app;
  const dir = await makeFolder();
  try {
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(7);
    await expect(page.locator('[data-testid="photo-tile"][data-status="ready"]')).toHaveCount(7, { timeout: 60_000 });

    // The scan runs by itself after the import; the library can show just the photos with duplicates to review.
    await page.getByLabel('Show').selectOption('unreviewed_duplicates');
    await expect(page.getByTestId('photo-count')).toContainText('5 photos', { timeout: 60_000 });
    await app.shot('duplicates-library-filter');
    await page.getByLabel('Show').selectOption('all');

    // A date on the print: the archivist's own bound.
    await tiles.filter({ hasText: 'flowers-original.jpg' }).dblclick();
    const form = page.getByTestId('manual-form');
    await form.getByLabel('Constraint').selectOption('not_before');
    await form.getByLabel('Year').fill('1935');
    await form.getByLabel('Note').fill('the car is a 1935 model');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(page.getByTestId('evidence-item').filter({ hasText: 'Not before 1935' })).toBeVisible();

    // The Duplicates screen (the sidebar counts the groups to review): two groups, the first shown side by side.
    await expect(page.getByTestId('duplicates-badge')).toHaveText('2');
    await page.getByRole('link', { name: /^Duplicates/ }).click();
    await expect(page.getByRole('heading', { name: 'Duplicates' })).toBeVisible();
    await expect(page.getByTestId('dup-tab-unreviewed')).toContainText('2');
    await expect(page.getByTestId('dup-scan-state')).toContainText('Last scan: 7 photos compared; 4 new pairs to review');
    const group = page.getByTestId('dup-group');
    const copies = group.getByTestId('dup-copy');
    await expect(copies).toHaveCount(3);
    const original = copies.filter({ hasText: 'flowers-original.jpg' });
    await expect(original.getByTestId('dup-facts')).toContainText('640 × 480 px');
    await expect(original.getByTestId('dup-evidence')).toContainText('1 accepted');
    await expect(group.getByRole('list', { name: 'How the copies matched' })).toContainText('inside the border');
    await app.shot('duplicates-review');

    // Keyboard: highlight the original, P makes it the preferred original, A confirms the group.
    await original.click();
    await page.keyboard.press('p');
    await expect(original).toContainText('Preferred original');
    await page.keyboard.press('a');
    await expect(page.getByTestId('dup-flash')).toContainText('Confirmed 3 copies as one photograph');
    await expect(page.getByTestId('dup-tab-confirmed')).toContainText('1');

    // The harbour crop: R rules it out, Ctrl+Z takes that back, R again.
    await expect(copies).toHaveCount(2);
    await expect(copies.first()).toContainText('harbour');
    await page.keyboard.press('r');
    await expect(page.getByTestId('dup-empty')).toContainText('No duplicates to review.');
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('dup-flash')).toContainText('Undone: not the same');
    await expect(copies).toHaveCount(2);
    await page.keyboard.press('r');
    await expect(page.getByTestId('dup-empty')).toBeVisible();
    await expect(page.getByTestId('duplicates-badge')).toHaveCount(0);
    await page.getByTestId('dup-tab-different').click();
    await expect(page.getByTestId('dup-row')).toHaveCount(1);
    await app.shot('duplicates-not-the-same');

    // Confirmed: the preferred original is marked; the copies' evidence counts show what travelled.
    await page.getByTestId('dup-tab-confirmed').click();
    await expect(group).toHaveAttribute('data-state', 'confirmed');
    await expect(copies.filter({ hasText: 'Preferred original' })).toContainText('flowers-original.jpg');
    const resized = copies.filter({ hasText: 'flowers-resize.jpg' });
    await expect(resized.getByTestId('dup-evidence')).toContainText('1 pending (1 from copies)');
    await app.shot('duplicates-confirmed');
    await page.setViewportSize({ width: 1024, height: 700 });
    await app.shot('duplicates-confirmed-small');
    await page.setViewportSize({ width: 1360, height: 860 });

    // On the resized copy, the print's bound waits for review as evidence from a duplicate.
    await resized.getByRole('link', { name: 'flowers-resize.jpg' }).click();
    await expect(page.getByRole('heading', { name: 'flowers-resize.jpg' })).toBeVisible();
    const travelled = page.getByTestId('evidence-group-duplicate').getByTestId('evidence-item');
    await expect(travelled).toHaveCount(1);
    await expect(travelled).toHaveAttribute('data-review', 'pending');
    await expect(travelled).toContainText('From the copy “flowers-original.jpg”: Not before 1935 — the car is a 1935 model');
    await travelled.getByText('Details').click();
    await expect(travelled.getByRole('link', { name: 'flowers-original.jpg' })).toBeVisible();
    await travelled.locator('.ev-kind').click();
    await page.keyboard.press('a');
    await expect(travelled).toHaveAttribute('data-review', 'accepted');
    await expect(page.getByTestId('estimate-dacs')).toContainText('1935');
    await app.shot('duplicates-evidence-on-copy');

    // Nothing is left to review.
    await page.keyboard.press('Escape');
    await page.getByLabel('Show').selectOption('unreviewed_duplicates');
    await expect(page.getByTestId('photo-count')).toContainText('0 photos');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
