/**
 * Issue 15, Locate…: a folder moved while Circa was closed shows its photos missing when the
 * library opens again; "Locate…" on that folder (the "Missing files" view) or on one photo (its
 * screen) finds them by content at their new place. Browser mode types the path, as the import does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { importCorpusCopies, importFolder, overflowing } from './helpers';

const NAMES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'];

test('a moved folder is located from the Missing files view; a moved photo from its own screen', async ({ app }) => {
  test.skip(app.target === 'electron', 'typing paths is browser mode; the Electron dialog cannot be driven');
  const { page } = app;
  const dir = await importCorpusCopies(page, app.target, NAMES);
  const tiles = page.getByTestId('photo-tile');
  await expect(tiles.filter({ has: page.locator('[data-status="pending"]') })).toHaveCount(0);
  const moved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-moved-')), 'box 12');
  try {
    // The folder moves (one file renamed on the way) while Circa is closed.
    const { after } = await app.restartServer!(async () => {
      fs.renameSync(dir, moved);
      fs.renameSync(path.join(moved, 'Canon_40D.jpg'), path.join(moved, 'canon-scan-001.jpg'));
    });
    await page.goto(after);
    await expect(tiles.getByText('Missing', { exact: true })).toHaveCount(3);
    await expect(page.getByTestId('health')).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });

    await page.getByLabel('Show').selectOption('missing');
    const band = page.getByTestId('missing-folders');
    await expect(band).toContainText('3 photos are missing from 1 folder');
    await expect(band.getByRole('listitem')).toHaveText([new RegExp(`${escape(dir)}\\s*3 photos\\s*Locate…`)]);
    await app.shot('locate-missing-folders');

    await band.getByRole('button', { name: 'Locate…' }).click();
    const dialog = page.getByTestId('locate-dialog');
    await expect(dialog).toContainText(`3 photos last seen in ${dir}.`);
    const where = dialog.getByLabel('File or folder path on this computer');
    // A place that is not there is refused before anything runs, saying so.
    await where.fill(path.join(moved, 'nope'));
    await dialog.getByRole('button', { name: 'Locate', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(`"${path.join(moved, 'nope')}" does not exist on this computer`);
    await app.shot('locate-bad-path');
    expect(await overflowing(dialog)).toEqual([]);

    await where.fill(moved);
    await dialog.getByRole('button', { name: 'Locate', exact: true }).click();
    await expect(dialog.getByTestId('locate-status')).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    await expect(dialog.getByTestId('locate-status')).toHaveText(`Relinked 3 photos found in ${moved}; none still missing.`);
    await app.shot('locate-done');
    expect(await overflowing(dialog)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(band).toHaveCount(0);
    await page.getByLabel('Show').selectOption('all');
    await expect(tiles).toHaveCount(3);
    await expect(tiles.getByText('Missing', { exact: true })).toHaveCount(0);
    await expect(tiles.filter({ hasText: 'canon-scan-001.jpg' })).toHaveCount(1);

    // One photo moves again; its folder imported again marks it missing; its screen locates it.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-elsewhere-'));
    fs.renameSync(path.join(moved, 'Nikon_D70.jpg'), path.join(elsewhere, 'Nikon_D70.jpg'));
    const panel = await importFolder(page, app.target, moved);
    await expect(panel.getByRole('status').filter({ hasText: 'Import finished' })).toContainText('1 no longer there');
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const nikon = tiles.filter({ hasText: 'Nikon_D70.jpg' });
    await expect(nikon.getByText('Missing', { exact: true })).toBeVisible();
    await nikon.dblclick();
    const box = page.locator('.missing-box');
    await expect(box).toContainText(`It is not at ${path.join(moved, 'Nikon_D70.jpg')} any more`);
    await box.getByRole('button', { name: 'Locate…' }).click();
    await where.fill(path.join(elsewhere, 'Nikon_D70.jpg'));
    await dialog.getByRole('button', { name: 'Locate', exact: true }).click();
    await expect(dialog.getByTestId('locate-status')).toHaveText(
      `Relinked 1 photo found in ${path.join(elsewhere, 'Nikon_D70.jpg')}; none still missing.`,
    );
    await app.shot('locate-photo-done');
    expect(await overflowing(dialog)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(box).toHaveCount(0);
    await expect(page.getByTestId('photo-path')).toHaveText(path.join(elsewhere, 'Nikon_D70.jpg'));
    await app.shot('locate-photo-found');

    // Another moves; from the library, the selection bar offers Locate… for the missing ones selected.
    fs.renameSync(path.join(moved, 'Pentax_K10D.jpg'), path.join(elsewhere, 'pentax.jpg'));
    await page.getByRole('link', { name: '← Library' }).click();
    await importFolder(page, app.target, moved);
    await page.getByRole('button', { name: 'Close the import panel' }).click();
    const pentax = tiles.filter({ hasText: 'Pentax_K10D.jpg' });
    await expect(pentax.getByText('Missing', { exact: true })).toBeVisible();
    await pentax.click();
    await tiles.filter({ hasText: 'canon-scan-001.jpg' }).click({ modifiers: ['Control'] });
    const bar = page.getByTestId('selection-bar');
    await bar.getByRole('button', { name: 'Locate missing…' }).click();
    await expect(dialog).toContainText(`Pentax_K10D.jpg, last seen at ${path.join(moved, 'Pentax_K10D.jpg')}.`);
    await where.fill(elsewhere);
    await dialog.getByRole('button', { name: 'Locate', exact: true }).click();
    await expect(dialog.getByTestId('locate-status')).toHaveText(
      `Relinked 1 photo found in ${elsewhere}; none still missing; 1 file there matched no missing photo (Nikon_D70.jpg).`,
    );
    await app.shot('locate-selection-done');
    expect(await overflowing(dialog)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(pentax).toHaveCount(0);
    await expect(tiles.filter({ hasText: 'pentax.jpg' }).getByText('Missing', { exact: true })).toHaveCount(0);
    await expect(bar.getByRole('button', { name: /^Locate/ })).toHaveCount(0);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.dirname(moved), { recursive: true, force: true });
  }
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
