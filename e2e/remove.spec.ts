/**
 * Issue 15, library housekeeping: the selected photos are removed from the library (never the
 * files), confirmed in place, and Undo brings them back with what was decided about them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { importCorpusCopies } from './helpers';

test('removes the selected photos, keeps the files, and undoes the removal', async ({ app }) => {
  const { page } = app;
  const dir = await importCorpusCopies(page, app.target, ['Canon_40D.jpg', 'Nikon_D70.jpg', 'orientation/portrait_1.jpg']);
  try {
    const tiles = page.getByTestId('photo-tile');

    // Two selected; Remove… asks in place, and Keep changes nothing.
    const bar = page.getByTestId('selection-bar');
    await tiles.filter({ hasText: 'Canon_40D.jpg' }).click();
    await tiles.filter({ hasText: 'Nikon_D70.jpg' }).click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Remove…' }).click();
    const confirm = bar.getByRole('group', { name: 'Confirm removal' });
    await expect(confirm).toContainText('Remove 2 photos from the library? The files stay on disk.');
    await app.shot('remove-confirm');
    await confirm.getByRole('button', { name: 'Keep' }).click();
    await expect(tiles).toHaveCount(3);

    await bar.getByRole('button', { name: 'Remove…' }).click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(tiles).toHaveCount(1);
    await expect(page.getByTestId('photo-count')).toHaveText('1 photo');
    const notice = page.getByTestId('removal-notice');
    await expect(notice).toContainText('Removed 2 photos from the library; the files are untouched');
    expect(fs.existsSync(path.join(dir, 'Canon_40D.jpg'))).toBe(true);
    await app.shot('remove-done');

    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect(notice).toContainText('Brought back 2 photos.');
    await expect(tiles).toHaveCount(3);
    await expect(page.getByTestId('photo-count')).toHaveText('3 photos');
    await app.shot('remove-undone');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
