/**
 * Dates read in a caption note (issue 27): a French and a German caption typed into a photo's
 * notes are read to the day, shown with their EDTF, precision and the convention used; each
 * becomes a finding of the notes that narrows the estimate to that day at once, and — used as a
 * constraint — fixes it there. A numeric date follows the library's order (Settings) and offers
 * the other reading; rejecting the note's reading takes it out of the estimate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { renderCaption } from '../test/support/caption-images';
import { test, expect } from './fixtures';
import { importFolder, openPhoto } from './helpers';

async function typeNotes(page: Page, text: string) {
  const notes = page.getByRole('textbox', { name: 'Notes', exact: true });
  await notes.fill(text);
  await notes.press('Control+Enter');
  await expect(page.getByTestId('notes-state')).toHaveText('Saved');
}

const sideTo = (page: Page, testId: string) => page.getByTestId(testId).scrollIntoViewIfNeeded();
const noteFinding = (page: Page) => page.getByTestId('evidence-item').and(page.locator('[data-source="note"]'));

test('a French and a German caption note are read to the day and narrow the estimate', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-caption-notes-'));
  try {
    // Prints with no date of their own: the dates come from the notes.
    fs.writeFileSync(path.join(dir, 'mariage.png'), await renderCaption('Lyon', { size: 40 }));
    fs.writeFileSync(path.join(dir, 'hochzeit.png'), await renderCaption('Wien', { size: 40 }));
    fs.writeFileSync(path.join(dir, 'slide.png'), await renderCaption('Kodak', { size: 40 }));
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();

    for (const [file, note, text, edtf, dacs] of [
      ['mariage.png', 'Mariage de Jeanne et Paul, le 4 août 1906, Lyon', '4 août 1906', '1906-08-04', '1906 August 4'],
      ['hochzeit.png', 'Hochzeit von Anna und Karl, den 12. März 1908 in Wien', '12. März 1908', '1908-03-12', '1908 March 12'],
    ]) {
      await openPhoto(page, file);
      const estimate = page.getByTestId('evidence-area');
      await expect(estimate).toHaveAttribute('data-status', /undated|needs_review|estimated/);
      await typeNotes(page, note);
      const read = page.getByTestId('caption-date');
      await expect(read).toHaveCount(1);
      await expect(read).toContainText(text);
      await expect(read.getByTestId('caption-date-edtf')).toHaveText(edtf);
      await expect(read.getByTestId('caption-date-precision')).toHaveText('day');
      await sideTo(page, 'caption-dates');
      await app.shot(`caption-dates-${file.replace('.png', '')}-read`);
      // The note is evidence by itself: a finding of the notes, and the estimate narrows to the day.
      const finding = noteFinding(page);
      await expect(finding).toHaveCount(1);
      await expect(finding).toContainText(dacs);
      await expect(page.getByTestId('estimate-edtf')).toHaveText(new RegExp(`^${edtf}~?$`));
      await finding.getByText('Details').click();
      await expect(finding.getByTestId('note-edtf')).toHaveText(edtf);
      await finding.scrollIntoViewIfNeeded();
      await app.shot(`caption-dates-${file.replace('.png', '')}-finding`);
      await read.getByRole('button', { name: 'Use as a constraint' }).click();
      await expect(page.getByTestId('estimate-edtf')).toHaveText(edtf);
      await expect(page.getByTestId('estimate-dacs')).toContainText(dacs);
      await page.locator('.photo-side').evaluate((el) => el.scrollTo({ top: 0 }));
      await app.shot(`caption-dates-${file.replace('.png', '')}-estimate`);
    }

    // Numeric dates: day first in this library; the other reading is offered.
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await page.getByTestId('numeric-date-order').selectOption('day-first');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
    await app.shot('caption-dates-settings');
    await openPhoto(page, 'slide.png');
    await typeNotes(page, 'Slide mount stamped 7/4/1906');
    const numeric = page.getByTestId('caption-date');
    await expect(numeric.getByTestId('caption-date-edtf')).toHaveText('1906-04-07');
    await expect(numeric).toContainText('numeric dates read day first');
    const other = numeric.getByRole('button', { name: /Use the other reading \(month first: 4 July 1906\)/ });
    await expect(other).toBeVisible();
    await sideTo(page, 'caption-dates');
    await app.shot('caption-dates-numeric');
    // The notes' own reading (day first) dates the photo until the archivist rejects it.
    await expect(page.getByTestId('estimate-edtf')).toHaveText(/^1906-04-07~?$/);
    await noteFinding(page).locator('.ev-kind').click();
    await page.keyboard.press('r');
    await expect(noteFinding(page)).toHaveAttribute('data-review', 'rejected');
    await expect(page.getByTestId('evidence-area')).toHaveAttribute('data-status', 'undated');
    await other.click();
    await expect(page.getByTestId('estimate-edtf')).toHaveText('1906-07-04');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a note naming V-E Day dates the photo with its source; “before the war memorial” dates nothing', async ({ app }) => {
  test.setTimeout(90_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-note-history-'));
  try {
    fs.writeFileSync(path.join(dir, 'street.png'), await renderCaption('Ashby', { size: 40 }));
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    await openPhoto(page, 'street.png');

    await typeNotes(page, 'The village group before the war memorial, Ashby');
    await expect(noteFinding(page)).toHaveCount(0);
    await expect(page.getByTestId('evidence-area')).toHaveAttribute('data-status', 'undated');

    await typeNotes(page, 'V-E Day street party, Ashby');
    const finding = noteFinding(page);
    await expect(finding).toHaveCount(1);
    await expect(finding).toContainText('1945 May 8');
    await expect(page.getByTestId('estimate-edtf')).toHaveText(/^1945-05-08~?$/);
    await finding.getByText('Details').click();
    await expect(finding.getByTestId('history-source')).toHaveText('Wikipedia, “Victory in Europe Day”');
    await finding.scrollIntoViewIfNeeded();
    await app.shot('caption-dates-note-history');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
