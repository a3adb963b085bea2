/**
 * Settings → Text recognition: OCR reads English alone until the archivist adds languages; the
 * choice is saved and comes back, and the last language cannot be unticked.
 */
import { test, expect } from './fixtures';

test('chooses the languages OCR reads, and keeps at least one', async ({ app }) => {
  const { page } = app;
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const group = page.getByTestId('ocr-languages');
  const english = group.getByRole('checkbox', { name: 'English' });
  const french = group.getByRole('checkbox', { name: 'French' });
  await expect(english).toBeChecked();
  await expect(english).toBeDisabled();
  await french.check();
  await expect(english).toBeEnabled();
  await group.screenshot({ path: test.info().outputPath('ocr-languages.png') });
  await page.screenshot({ path: test.info().outputPath('settings.png'), fullPage: true });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('ocr-languages').getByRole('checkbox', { name: 'French' })).toBeChecked();
});
