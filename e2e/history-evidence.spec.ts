/**
 * History as evidence, as the archivist meets it: a printed caption "V-E Day celebrations, London"
 * read by OCR becomes a finding of 8 May 1945 that says where it came from (the catalogue entry and
 * its source); accepting it dates the photo to the day. An event the archivist adds in Settings
 * (with its own source) is read in another caption the same way, and their entries download as JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderCaption } from '../test/support/caption-images';
import { test, expect } from './fixtures';
import { importFolder, openPhoto, runOcr } from './helpers';

test('a caption naming V-E Day dates the photo to the day with its source; an entry of your own is read too', async ({ app }) => {
  test.setTimeout(240_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-history-'));
  try {
    fs.writeFileSync(path.join(dir, 've-day.png'), await renderCaption('V-E Day celebrations, London', { size: 48 }));
    fs.writeFileSync(path.join(dir, 'fete.png'), await renderCaption('Ashby Village Fete, the tug of war', { size: 48 }));

    // Settings → History in captions: an entry with an impossible date is refused with the reason…
    await page.getByRole('link', { name: 'Settings' }).click();
    const history = page.locator('form.history-entries');
    await expect(history).toContainText(/catalogue holds \d{3} entries/);
    await history.getByLabel('Name (and other names, comma-separated)').fill('Ashby Village Fete');
    await history.getByLabel('From').fill('1923-02-30');
    await history.getByLabel('Source').fill('Ashby parish magazine');
    await history.getByLabel('Article or record').fill('August 1923, p. 4');
    await history.getByRole('button', { name: 'Add entry' }).click();
    await expect(history.getByRole('alert')).toContainText('From: a date as YYYY, YYYY-MM or YYYY-MM-DD');
    // …and with a real one, kept and listed.
    await history.getByLabel('From').fill('1923-07-14');
    await history.getByRole('button', { name: 'Add entry' }).click();
    await expect(history.getByRole('status')).toContainText('Added “Ashby Village Fete”');
    const table = page.getByTestId('own-history-entries');
    await expect(table).toContainText('Ashby Village Fete');
    await expect(table).toContainText('1923-07-14');
    await expect(table).toContainText('Ashby parish magazine, “August 1923, p. 4”');
    await history.scrollIntoViewIfNeeded();
    await app.shot('history-settings');

    // The archivist's entries download as a catalogue-shaped JSON file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      history.getByRole('button', { name: 'Download my entries (JSON)' }).click(),
    ]);
    const saved = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(saved).toMatchObject({
      family: 'own',
      version: 1,
      entries: [{ names: { en: ['Ashby Village Fete'] }, from: '1923-07-14' }],
    });

    await page.getByRole('link', { name: 'Library', exact: true }).click();
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();

    // V-E Day: OCR reads the caption; the finding names the entry and its source.
    await openPhoto(page, 've-day.png');
    await runOcr(page);
    const veItem = page.getByTestId('evidence-item').and(page.locator('[data-source="ocr"]')).filter({ hasText: 'V-E Day' });
    await expect(veItem).toHaveCount(1);
    await expect(veItem).toContainText('1945 May 8');
    await veItem.getByText('Details').click();
    await expect(veItem.getByTestId('history-entry')).toContainText('V-E Day (dates the picture; Circa’s catalogue)');
    await expect(veItem.getByTestId('history-source')).toHaveText('Wikipedia, “Victory in Europe Day”');
    await expect(veItem.getByRole('link', { name: 'Wikipedia, “Victory in Europe Day”' })).toHaveAttribute(
      'href',
      'https://en.wikipedia.org/wiki/Victory_in_Europe_Day',
    );
    await veItem.locator('.ev-kind').click();
    await page.keyboard.press('a');
    await expect(veItem).toHaveAttribute('data-review', 'accepted');
    await expect(page.getByTestId('estimate-edtf')).toHaveText(/^1945-05-08~?$/);
    await page.locator('.photo-side').evaluate((el) => el.scrollTo({ top: 0 }));
    await app.shot('history-ve-day');

    // Rejecting it takes it out of the estimate (the existing review serves).
    await veItem.locator('.ev-kind').click();
    await page.keyboard.press('r');
    await expect(veItem).toHaveAttribute('data-review', 'rejected');
    await expect(page.getByTestId('evidence-area')).toHaveAttribute('data-status', 'undated');

    // The archivist's own entry, read in another caption.
    await openPhoto(page, 'fete.png');
    await runOcr(page);
    const feteItem = page
      .getByTestId('evidence-item')
      .and(page.locator('[data-source="ocr"]'))
      .filter({ hasText: 'Ashby Village Fete' });
    await expect(feteItem).toHaveCount(1);
    await feteItem.getByText('Details').click();
    await expect(feteItem.getByTestId('history-entry')).toContainText('your own entry');
    await expect(feteItem.getByTestId('history-source')).toHaveText('Ashby parish magazine, “August 1923, p. 4”');
    await feteItem.locator('.ev-kind').click();
    await page.keyboard.press('a');
    await expect(page.getByTestId('estimate-edtf')).toHaveText(/^1923-07-14~?$/);
    await app.shot('history-own-entry');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
