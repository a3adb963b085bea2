/**
 * Issue 15, "smaller things that add up": a selection is what the archivist can see, the
 * constraint form speaks in the form's words (never zod's) and forgets a message when the kind
 * of constraint changes, ranges take an en dash, and the tab has an icon.
 */
import fs from 'node:fs';
import { test, expect } from './fixtures';
import { importCorpusCopies, roomForText } from './helpers';

test('selection, validation wording and range dashes', async ({ app }) => {
  const { page } = app;
  let dir: string | undefined;
  try {
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^data:image\/svg\+xml,/);
    // The search field's placeholder fits in the field (measured in its own font).
    expect(await roomForText(page.getByLabel('Search filenames'), 'placeholder')).toBeGreaterThanOrEqual(0);

    dir = await importCorpusCopies(page, app.target, [
      'Canon_40D.jpg',
      'orientation/portrait_1.jpg',
      'orientation/landscape_1.jpg',
    ]);
    const tiles = page.getByTestId('photo-tile');

    // Select the Canon, then search for something that hides it: the bar says it is left out.
    const bar = page.getByTestId('selection-bar');
    await tiles.filter({ hasText: 'Canon_40D.jpg' }).click();
    await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
    await page.getByLabel('Search filenames').fill('portrait');
    await expect(tiles).toHaveCount(1);
    await expect(page.getByTestId('selection-count')).toHaveText('0 selected (+1 hidden, left out)');
    await expect(bar.getByRole('button', { name: /^Re-run/ })).toBeDisabled();
    await app.shot('library-selection-hidden');

    // Adding the visible one: actions count only it.
    await tiles.first().click({ modifiers: ['Control'] });
    await expect(page.getByTestId('selection-count')).toHaveText('1 selected (+1 hidden, left out)');
    await bar.getByRole('button', { name: 'Re-run metadata' }).click();
    await expect(bar.getByRole('status')).toHaveText(/^1 started, 0 already running$|^0 started, 1 already running$/);

    // Clearing the search brings the hidden one back into the selection.
    await page.getByLabel('Search filenames').fill('');
    await expect(tiles).toHaveCount(3);
    await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
    await bar.getByRole('button', { name: 'Clear' }).click();

    // The constraint form: a year out of range in the form's words, not zod's.
    await tiles.filter({ hasText: 'Canon_40D.jpg' }).dblclick();
    await expect(page.getByRole('heading', { name: 'Canon_40D.jpg' })).toBeVisible();
    const form = page.getByTestId('manual-form');
    await form.getByLabel('Constraint').selectOption('not_after');
    await form.getByLabel('Year').fill('2200');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(form.getByRole('alert')).toHaveText('Must be 2100 or earlier');
    await app.shot('constraint-humanised');

    // Another kind of constraint: the message about the last one goes.
    await form.getByLabel('Constraint').selectOption('between');
    await expect(form.getByRole('alert')).toHaveCount(0);

    // A range is written with an en dash everywhere: the estimate and the evidence alike.
    await form.getByLabel('From year').fill('1935');
    await form.getByLabel('To year').fill('1942');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(page.getByTestId('estimate-dacs')).toHaveText(/1935–1942/);
    await expect(page.getByTestId('evidence-area')).not.toContainText('1935-1942');
    await app.shot('constraint-en-dash');
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});
