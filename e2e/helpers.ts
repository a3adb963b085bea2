/** Steps shared by the e2e specs. */
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Imports a folder and waits for the import to finish. Browser mode types the path; the Electron app's dialog cannot be driven, so it calls the bridge. */
export async function importFolder(page: Page, target: string, dir: string): Promise<Locator> {
  const panel = page.getByTestId('import-panel');
  if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Import…' }).click();
  if (target === 'electron') {
    await page.evaluate((p) => window.circa!.call('photos.import', { paths: [p] }), dir);
  } else {
    await panel.getByLabel('Folder or file path on this computer').fill(dir);
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
  }
  await expect(panel.getByTestId('import-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  return panel;
}
