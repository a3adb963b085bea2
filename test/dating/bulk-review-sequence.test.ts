/**
 * The sequence of e2e/dating-decisions.spec.ts, driven through main's contract on a real library
 * with real workers and real OCR: import two scans, a camera original, a file with only a saved
 * date and a postcard; treat the camera original as a scan and undo it; OCR the postcard; add,
 * delete and undo manual constraints; then accept every pending EXIF bound of the five at once.
 * Exactly the three EXIF bounds (the two scans' and the saved date's) are pending then; if one is
 * not, the failure prints the audit ledger, which says what changed it.
 *
 * Main holds all three whatever the timing: the spec's "Accepted 2" (stops 34-35) was the grid's
 * doing. Clearing both year fields asked main for the half-cleared range ('…–1999') for a moment,
 * whose 3 photos (saved-2009.jpg not among them) replaced the grid under the selection as
 * "Accept all" was clicked; LibraryScreen now settles the two ends together.
 */
import { afterEach, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { CallInput, CallName } from '../../src/shared/contract';
import { callCore, openTestCore, tempDir, waitForStatus } from '../support/core';
import { importSettled } from '../support/import-settled';
import { writeDatingDecisionsFiles } from '../support/dating-decisions-files';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

const call = <N extends CallName>(name: N, input: CallInput<N>) => callCore(core!, name, input);

async function undoLast(photoId: number) {
  const { action } = await call('history.last', { photoId });
  expect(action, 'something to undo').not.toBeNull();
  return call('history.undo', { actionId: action!.id, photoId });
}

it('accepts exactly the three pending EXIF bounds after the spec’s scan override, OCR and constraint undo', async () => {
  const dir = tempDir('circa-bulk-seq-');
  await writeDatingDecisionsFiles(dir);

  core = openTestCore({ concurrency: 1 });
  await importSettled(core, dir);
  const rows = core.photos.list({ sort: 'imported', filter: 'all', limit: 10 }).items;
  const id = (name: string) => rows.find((p) => p.filename === name)!.id;
  expect(rows).toHaveLength(5);

  // Item 6: the camera original treated as a scan, then undone.
  const sony = id('sony-camera.jpg');
  expect((await call('photos.setScanOverride', { id: sony, override: 'scan' })).isScan).toBe(true);
  expect((await undoLast(sony)).message).toContain('Undone: Marked photo');

  // Item 3: OCR of the postcard reads its postmark.
  const postcard = id('postcard.png');
  const { job } = core.jobs.enqueue({ type: 'ocr', payload: { photoId: postcard } });
  expect((await waitForStatus(core, job.id, ['success', 'failed', 'cancelled'], 120_000)).status).toBe('success');

  // Items 9 and 1: two constraints, one deleted, the deletion and then its addition undone.
  await call('evidence.addManual', { photoId: postcard, constraint: { type: 'not_before', year: 1923, month: 6 }, note: '' });
  const may = await call('evidence.addManual', {
    photoId: postcard,
    constraint: { type: 'between', from: { year: 1923, month: 5, day: 3 }, to: { year: 1923, month: 5, day: 10 } },
    note: '',
  });
  await call('evidence.removeManual', { id: may.item.id });
  await undoLast(postcard);
  await undoLast(postcard);

  // Item 10: every pending EXIF bound of the five, at once.
  const pendingBounds = () =>
    core!.evidence.currentMatching(
      rows.map((p) => p.id),
      'exif',
      'bound',
      'pending',
    );
  const expected = [id('scan-2000-09-30.jpg'), id('scan-1999-03-01.jpg'), id('saved-2009.jpg')].sort();
  // What changed each EXIF finding's review or currency, from the ledger, to say why if one is missing.
  const ledger = core.db.sqlite
    .prepare(`SELECT event, actor, photo_id, data FROM audit_events WHERE actor = 'user' OR photo_id IS NOT NULL ORDER BY id`)
    .all();
  expect(
    pendingBounds()
      .map((r) => r.photo_id)
      .sort(),
    JSON.stringify(ledger, null, 1),
  ).toEqual(expected);
  const reviewed = await call('evidence.reviewMany', {
    photoIds: rows.map((p) => p.id),
    source: 'exif',
    kind: 'bound',
    from: 'pending',
    status: 'accepted',
  });
  expect(reviewed).toMatchObject({ changed: 3, photos: 3 });
  expect(reviewed.action?.label).toBe('Accepted 3 pending EXIF bounds on 3 photos');
  expect(core.ledger.verify().ok).toBe(true);
}, 240_000);
