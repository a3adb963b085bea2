import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';

async function start(page: Page, type: string) {
  await page.getByLabel('Job type to start').selectOption(type);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Started ${type}` })).toBeVisible();
}

/** The newest row of a type (the list is newest first). */
const newest = (page: Page, type: string) => page.getByTestId('job-row').filter({ hasText: type }).first();

test('the Jobs page drives jobs through success, a readable failure, retry, cancel and pause', async ({ app }) => {
  const { page } = app;
  await page.getByRole('link', { name: /^Jobs/ }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();

  // enqueue → running → success, live.
  await start(page, 'diag.sleep');
  const sleeper = newest(page, 'diag.sleep');
  await expect(sleeper).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('tile-running')).toContainText('1');
  await app.shot('jobs-running');
  await expect(sleeper).toHaveAttribute('data-status', 'success', { timeout: 20_000 });
  await expect(page.getByTestId('tile-success')).toContainText('1');

  // A failure with a readable error, shown in the details panel with its history in plain words;
  // internals (the worker's id, the payload) only under "Technical details".
  await start(page, 'diag.fail');
  const failing = newest(page, 'diag.fail');
  await expect(failing).toHaveAttribute('data-status', 'failed');
  await expect(failing).toContainText('new');
  await expect(page.getByTestId('badge-failed')).toHaveText('1');
  await expect(page.getByTestId('failed-new')).toContainText('1 new');
  await failing.click();
  const details = page.getByTestId('job-details');
  await expect(details.getByTestId('details-error')).toHaveText('The diagnostic handler failed on purpose');
  const history = details.getByTestId('job-history');
  await expect(history).toContainText('Queued');
  await expect(history).toContainText('Failed: a retry cannot fix it');
  await expect(history).not.toContainText(/vm:|\/w\d/);
  const advanced = details.getByTestId('job-advanced');
  await expect(advanced.getByText('Payload')).toBeHidden();
  await app.shot('jobs-failed-details');
  await advanced.locator('summary').click();
  await expect(advanced.getByText('Payload')).toBeVisible();
  await expect(advanced).toContainText('"message"');
  await app.shot('jobs-failed-technical');
  await advanced.locator('summary').click();

  // A permanent failure is not retried blindly: the panel says why; "Retry anyway" makes a new job
  // and the old failure counts as answered, so the badge still says one thing needs attention.
  await expect(details.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
  await expect(details.getByTestId('details-remedy')).toContainText('will fail again');
  const firstFailedId = await failing.getAttribute('data-job-id');
  await details.getByRole('button', { name: 'Retry anyway' }).click();
  await expect(page.getByRole('status').filter({ hasText: `to retry job ${firstFailedId}` })).toBeVisible();
  await expect(page.getByTestId('tile-failed')).toContainText('2');
  await expect(page.getByTestId('job-row').filter({ hasText: 'diag.fail' })).toHaveCount(2);
  await expect(page.getByTestId('badge-failed')).toHaveText('1');
  await expect(page.getByTestId('job-row').filter({ hasText: 'diag.fail' }).first()).toHaveAttribute('data-status', 'failed');

  // Dismissing it: it stays in the list, and the red badge goes.
  await details.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('badge-failed')).toBeHidden();
  await expect(page.getByTestId('tile-failed')).toContainText('2');
  await expect(page.getByTestId('failed-new')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Retry failed' })).toBeDisabled();
  await app.shot('jobs-dismissed');

  // Only work that can run is offered: every type in the Start menu has a handler, none is "not available".
  const offered = await page.getByLabel('Job type to start').locator('option').allTextContents();
  expect(offered).toContain('Rebuild estimates');
  expect(offered.join('\n')).not.toMatch(/not available/i);

  // Cancel a running job.
  await start(page, 'diag.sleep');
  const toCancel = newest(page, 'diag.sleep');
  await expect(toCancel).toHaveAttribute('data-status', 'running');
  await toCancel.click();
  await details.getByRole('button', { name: 'Cancel' }).click();
  await expect(toCancel).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('tile-cancelled')).toContainText('1');
  // Once it has stopped, "Stopping job N…" gives way to what became of it (issue 32, item 14).
  const cancelledId = await toCancel.getAttribute('data-job-id');
  await expect(page.locator('.jobs-screen .flash')).toHaveText(`Job ${cancelledId} cancelled`);

  // Pause: nothing new starts (one banner says so); resume: it runs.
  await page.getByRole('button', { name: 'Pause processing' }).click();
  await expect(page.getByTestId('paused-banner')).toBeVisible();
  await expect(page.locator('.jobs-screen .flash')).toHaveCount(1);
  await start(page, 'diag.noop');
  const waiting = newest(page, 'diag.noop');
  await expect(waiting).toHaveAttribute('data-status', 'queued');
  await expect(page.getByTestId('health')).toContainText('paused');
  await page.getByRole('button', { name: 'Resume processing' }).click();
  await expect(waiting).toHaveAttribute('data-status', 'success');

  // Filter by state with the tiles.
  await page.getByTestId('tile-failed').click();
  await expect(page.getByTestId('job-row')).toHaveCount(2);
  await app.shot('jobs-filtered');
});
