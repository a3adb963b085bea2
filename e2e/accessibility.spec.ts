/**
 * Issue 32, item 15: every screen passes axe-core with no serious or critical finding (contrast
 * of muted text, nested controls in the Jobs list, tile names that differ from what they show),
 * the focus never falls to <body> (a photo opens, a dialog closes, Escape leaves the notes), and
 * `?` lists every key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeVariants } from '../test/support/duplicate-variants';
import { test, expect } from './fixtures';
import { CORPUS_JPG, importFolder } from './helpers';
import { expectAccessible } from './a11y';
import { KEYMAP } from '../src/renderer/src/keyboard/keymap';

/** Two copies of one photograph (so the Duplicates screen has a group) and two other photos. */
async function makeFolder(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-a11y-'));
  const copies = await makeVariants(path.join(CORPUS_JPG, 'exif-org/canon-ixus.jpg'), ['original', 'resize']);
  fs.writeFileSync(path.join(dir, 'flowers.jpg'), copies.original);
  fs.writeFileSync(path.join(dir, 'flowers-small.jpg'), copies.resize);
  fs.copyFileSync(path.join(CORPUS_JPG, 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
  fs.copyFileSync(path.join(CORPUS_JPG, 'orientation/portrait_1.jpg'), path.join(dir, 'portrait_1.jpg'));
  return dir;
}

const focusedElement = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a ? `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}` : 'none';
  });

test('axe finds nothing serious on any screen', async ({ app }) => {
  test.setTimeout(240_000);
  const { page, target } = app;
  const dir = await makeFolder();
  try {
    await expectAccessible(page, target, 'the empty library');
    await page.getByRole('button', { name: 'Import photos…' }).click();
    await expectAccessible(page, target, 'the import panel');
    const panel = await importFolder(page, target, dir);
    await expectAccessible(page, target, 'the import panel, finished');
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tiles = page.getByTestId('photo-tile');
    await expect(page.locator('[data-testid="photo-tile"][data-status="ready"]')).toHaveCount(4, { timeout: 60_000 });
    await expectAccessible(page, target, 'the library');

    // A tile's accessible name is the text it shows.
    for (const tile of await tiles.all()) {
      const [name, text] = await tile.evaluate((el) => [
        el.getAttribute('aria-label') ?? '',
        (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
      ]);
      expect(name, 'a tile has no aria-label of its own').toBe('');
      expect(text).toMatch(/\.jpg/);
    }

    await tiles.first().click();
    await expectAccessible(page, target, 'the library with a selection');
    await page.getByRole('button', { name: 'Export…' }).click();
    await expect(page.getByTestId('export-dialog')).toBeVisible();
    await expectAccessible(page, target, 'the export dialog');
    await page.keyboard.press('Escape');

    await tiles.filter({ hasText: 'Canon_40D.jpg' }).dblclick();
    await expect(page.getByRole('heading', { name: 'Canon_40D.jpg' })).toBeVisible();
    await expect(page.getByTestId('evidence-item').first()).toBeVisible();
    await expectAccessible(page, target, 'the photo screen');

    await page.evaluate(() => (location.hash = '#/jobs'));
    await expect(page.getByTestId('job-row').first()).toBeVisible();
    await expectAccessible(page, target, 'the Jobs screen');
    await page.getByTestId('job-open').first().click();
    await expect(page.getByTestId('job-details')).toBeVisible();
    await expectAccessible(page, target, 'the Jobs screen with a job open');

    await page.evaluate(() => (location.hash = '#/duplicates'));
    await expect(page.getByTestId('dup-group').first()).toBeVisible({ timeout: 60_000 });
    await expectAccessible(page, target, 'the Duplicates screen');

    await page.evaluate(() => (location.hash = '#/backups'));
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect(page.getByTestId('backup-row').first()).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, target, 'the Backups screen');

    await page.evaluate(() => (location.hash = '#/settings'));
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expectAccessible(page, target, 'the Settings screen');

    await page.keyboard.press('?');
    await expect(page.getByTestId('keys-dialog')).toBeVisible();
    await expectAccessible(page, target, 'the keyboard overlay');
    await app.shot('keyboard-overlay');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the focus never falls to the page body, and ? lists every key', async ({ app }) => {
  test.setTimeout(120_000);
  const { page, target } = app;
  const dir = await makeFolder();
  try {
    const panel = await importFolder(page, target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(4);

    // Opening a photo puts the focus on its title.
    const first = (await tiles.first().locator('.tile-name').textContent())!;
    await tiles.first().dblclick();
    await expect(page.getByRole('heading', { name: first })).toBeFocused();
    // Stepping to the next photo with the keyboard keeps it on the (new) title.
    await page.keyboard.press('j');
    await expect(page.locator('#photo-title')).not.toHaveText(first);
    await expect(page.locator('#photo-title')).toBeFocused();

    // Escape in the notes leaves the field for its section, not for <body>; a second Escape goes back.
    await page.getByRole('textbox', { name: 'Notes' }).fill('Aunt Hilde on the left');
    await page.getByRole('textbox', { name: 'Notes' }).press('Escape');
    await expect(page.getByTestId('notes-state')).toHaveText('Saved');
    expect(await focusedElement(page)).not.toBe('body');
    await expect(page.locator('section.notes-section')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();

    // A dialog gives the focus back to what opened it.
    await tiles.first().click();
    const exportButton = page.getByRole('button', { name: 'Export…' });
    await exportButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('export-dialog')).toHaveCount(0);
    await expect(exportButton).toBeFocused();
    await exportButton.click();
    await page.getByTestId('export-dialog').getByRole('button', { name: 'Close the dialog' }).click();
    await expect(exportButton).toBeFocused();

    // `?` opens the list of every key; Escape closes it and the focus comes back.
    await page.getByRole('heading', { name: 'Library' }).focus();
    await page.keyboard.press('?');
    const keys = page.getByTestId('keys-dialog');
    await expect(keys).toBeVisible();
    await expect(keys.getByRole('row')).toHaveCount(KEYMAP.length + 1);
    for (const k of KEYMAP) await expect(keys.getByRole('cell', { name: k.does, exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(keys).toHaveCount(0);
    expect(await focusedElement(page)).not.toBe('body');
    // Not in a text field: typing a ? in the search is just a character.
    await page.getByLabel('Search filenames').fill('');
    await page.getByLabel('Search filenames').press('?');
    await expect(keys).toHaveCount(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
