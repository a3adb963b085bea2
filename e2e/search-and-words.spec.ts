/**
 * Issue 32, item 14, the workbench's small things: search folds ß/ss and finds nothing for "(" or
 * "-" (saying why), the year boxes show four digits whole, messages read as plain words (a
 * reversed range, an export folder that is not a full path). The Running tile's count is
 * logic, tested in src/renderer/src/screens/jobs/runningNow.test.ts.
 */
import fs from 'node:fs';
import { test, expect } from './fixtures';
import { importCorpusCopies, roomForText } from './helpers';

test('search folds ß, punctuation finds nothing, year boxes fit, messages in plain words', async ({ app }) => {
  test.setTimeout(120_000);
  const { page, target } = app;
  const dir = await importCorpusCopies(page, target, [
    'Canon_40D.jpg',
    'orientation/portrait_1.jpg',
    'orientation/landscape_1.jpg',
  ]);
  try {
    const tiles = page.getByTestId('photo-tile');
    const search = page.getByLabel('Search filenames');

    // A note with ß, found by typing ss.
    await tiles.filter({ hasText: 'Canon_40D.jpg' }).dblclick();
    const notes = page.getByRole('textbox', { name: 'Notes' });
    await notes.fill('Großmutter Anna im Garten');
    await notes.press('Control+Enter');
    await expect(page.getByTestId('notes-state')).toHaveText('Saved');
    await page.getByRole('link', { name: '← Library' }).click();
    await search.fill('grossmutter');
    await expect(tiles).toHaveCount(1);
    await expect(tiles).toContainText('Canon_40D.jpg');

    // Punctuation alone is no search for everything: nothing matches, and the screen says why.
    for (const typed of ['(', '-']) {
      await search.fill(typed);
      await expect(tiles).toHaveCount(0);
      await expect(page.getByTestId('search-no-words')).toContainText(`“${typed}” has none`);
    }
    await app.shot('search-punctuation');
    await search.fill('');
    await expect(tiles).toHaveCount(3);

    // The year boxes show "1930" whole, beside Chromium's spin buttons.
    for (const label of ['From year', 'To year']) {
      const box = page.getByLabel(label);
      await box.fill('1930');
      // Chromium's spin buttons, where shown, take about 16px of the field.
      const spinButtons = (await box.evaluate((el) => getComputedStyle(el).appearance)) === 'textfield' ? 0 : 16;
      const room = await roomForText(box, 'value', spinButtons);
      expect(room, `${label} leaves room for 1930`).toBeGreaterThanOrEqual(0);
    }
    await app.shot('year-boxes');
    await page.getByLabel('From year').fill('');
    await page.getByLabel('To year').fill('');

    // A reversed range on the constraint form, in the form's words.
    await tiles.filter({ hasText: 'Canon_40D.jpg' }).dblclick();
    const form = page.getByTestId('manual-form');
    await form.getByLabel('Constraint').selectOption('between');
    await form.getByLabel('From year').fill('1950');
    await form.getByLabel('To year').fill('1930');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(form.getByRole('alert')).toHaveText('The end of the range is before its start');
    await page.getByRole('link', { name: '← Library' }).click();

    // An export folder typed as a relative path: the dialog's words, not the payload's.
    if (target === 'browser') {
      await page.getByRole('button', { name: 'Export…' }).click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.getByLabel('Export folder').fill('exports');
      await dialog.getByRole('button', { name: 'Export', exact: true }).click();
      await expect(dialog.getByRole('alert')).toContainText('Export folder: give the full path of the folder');
      await expect(dialog).not.toContainText('Invalid payload');
      await app.shot('export-relative-folder');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
