/**
 * Every call of the contract, called validly on a library with a photo, jobs and evidence, answers
 * ok with a value its output schema accepts — exactly, with no field the schema does not know (a
 * field outside the contract would reach the renderer unvalidated). Output validation in the
 * dispatcher is off here, so these are the handlers' own answers, as production sends them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, calls, type CallName, type ImportProgress } from '../../src/shared/contract';
import type { Core } from '../../src/main/core/core';
import { CoreHost } from '../../src/main/core/core-host';
import { silentLogger } from '../../src/main/logger';
import { appPaths } from '../../src/main/app-paths';
import { openTestCore, tempDir, waitFor } from '../support/core';
import { addPhoto } from '../support/duplicates';
import { villageFete } from '../support/history-entries';

const CORPUS = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');

let host: CoreHost;
let core: Core;
let dir: string;
const revealed: string[] = [];

async function importDone(): Promise<void> {
  await waitFor(() => core.importer.status()?.status === 'done', 30_000, 'the import');
}

beforeAll(async () => {
  dir = tempDir('circa-answers-');
  fs.copyFileSync(path.join(CORPUS, 'jpg/Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
  // Through a CoreHost, as the app and browser mode open it (backups.restore needs one).
  const libraryDir = tempDir('circa-answers-lib-');
  host = new CoreHost(
    (overrides) =>
      openTestCore({
        libraryDir,
        validateOutputs: false,
        concurrency: 1,
        // The shell's native dialogs and file manager cannot run here; these stand in for them.
        platform: {
          chooseImportPaths: async () => [dir],
          chooseFolder: async () => dir,
          chooseFile: async () => path.join(dir, 'Canon_40D.jpg'),
          revealInFolder: (p) => revealed.push(p),
        },
        ...overrides,
      }),
    { log: silentLogger },
  );
  core = host.open();
  core.importer.start([dir]);
  await importDone();
  await waitFor(() => core.jobs.counts().success === 1, 60_000, 'the metadata job');
  const { job: backup } = core.jobs.enqueue({ type: 'backup', payload: {} });
  await waitFor(() => core.jobs.queries.get(backup.id)?.status === 'success', 60_000, 'the backup job');
}, 150_000);
afterAll(async () => {
  await host.close();
});

/** Ids learnt as the calls go, for the calls that need them. */
const state = {
  photoId: 0,
  jobId: 0,
  queuedJobId: 0,
  evidenceId: 0,
  manualId: 0,
  importId: 0,
  actionId: 0,
  copyId: 0,
  groupId: 0,
  backup: '',
  removal: { first: 0, last: 0 },
};

/** Each call with a valid input, in an order where each finds what it needs. */
const steps: [CallName, () => unknown, (value: any) => void | Promise<void>][] = [
  ['app.health', () => ({}), () => {}],
  ['settings.get', () => ({}), () => {}],
  ['settings.update', () => ({ workerCount: 1, jobRetentionDays: 30 }), () => {}],
  ['photos.list', () => ({ limit: 10 }), (v) => (state.photoId = v.items[0].id)],
  ['photos.get', () => ({ id: state.photoId }), (v) => (state.jobId = v.jobs[0].id)],
  ['jobs.list', () => ({ limit: 10 }), () => {}],
  ['jobs.types', () => ({}), () => {}],
  ['jobs.get', () => ({ id: state.jobId }), () => {}],
  ['jobs.counts', () => ({}), () => {}],
  ['jobs.setPaused', () => ({ paused: true }), () => {}],
  // Paused: the test job stays queued (nothing listens on port 9 anyway).
  ['settings.testAi', () => ({ aiBackend: 'ollama', aiBaseUrl: 'http://127.0.0.1:9', aiModel: 'llava' }), () => {}],
  ['jobs.acknowledge', () => ({ all: true }), () => {}],
  ['photos.viewer', () => ({ id: state.photoId }), () => {}],
  ['photos.inView', () => ({ ids: [state.photoId] }), () => {}],
  ['jobs.enqueue', () => ({ type: 'diag.sleep', payload: { ms: 0, key: 'answers' } }), (v) => (state.queuedJobId = v.job.id)],
  ['jobs.cancel', () => ({ id: state.queuedJobId }), () => {}],
  ['jobs.retry', () => ({ id: state.queuedJobId }), () => {}],
  ['jobs.retryAllFailed', () => ({}), () => {}],
  ['evidence.list', () => ({ photoId: state.photoId }), (v) => (state.evidenceId = v.items[0].id)],
  ['evidence.review', () => ({ id: state.evidenceId, status: 'accepted', note: 'checked' }), () => {}],
  [
    'evidence.addManual',
    () => ({ photoId: state.photoId, constraint: { type: 'not_before', year: 1990 }, note: 'box label' }),
    (v) => (state.manualId = v.item.id),
  ],
  [
    'evidence.updateManual',
    () => ({ id: state.manualId, constraint: { type: 'circa', year: 2005, plusMinus: 5 }, note: 'n' }),
    () => {},
  ],
  ['evidence.removeManual', () => ({ id: state.manualId }), () => {}],
  ['photos.setNotes', () => ({ id: state.photoId, notes: 'Found in box 12' }), () => {}],
  ['dating.readCaption', () => ({ text: 'Pique-nique, le 4 août 1906' }), (v) => expect(v.dates.length).toBeGreaterThan(0)],
  ['historyEntries.list', () => ({}), (v) => expect(v.entries).toEqual([])],
  ['historyEntries.save', () => ({ entries: [villageFete] }), (v) => expect(v.entries).toHaveLength(1)],
  ['photos.setScanOverride', () => ({ id: state.photoId, override: 'original' }), () => {}],
  ['evidence.reviewMany', () => ({ photoIds: [state.photoId], source: 'exif', from: 'accepted', status: 'pending' }), () => {}],
  ['history.last', () => ({ photoId: state.photoId }), (v) => (state.actionId = v.action.id)],
  ['history.undo', () => ({ actionId: state.actionId, photoId: state.photoId }), () => {}],
  // A copy of the photo (a row as the scan would see it), confirmed, listed and decided about.
  [
    'duplicates.confirm',
    () => ({ photoIds: [state.photoId, (state.copyId = addPhoto(core, 'copy.jpg'))] }),
    (v) => (state.groupId = v.groupId),
  ],
  ['duplicates.setPreferred', () => ({ groupId: state.groupId, photoId: state.photoId }), () => {}],
  ['duplicates.list', () => ({ view: 'confirmed' }), (v) => expect(v.groups[0].members).toHaveLength(2)],
  ['duplicates.unconfirm', () => ({ groupId: state.groupId }), () => {}],
  ['duplicates.notSame', () => ({ photoIds: [state.photoId], from: [state.copyId] }), () => {}],
  ['duplicates.proposeAgain', () => ({ photoIds: [state.photoId], from: [state.copyId] }), () => {}],
  [
    'duplicates.confirm',
    () => ({ photoIds: [state.photoId, state.copyId], preferredPhotoId: state.copyId }),
    (v) => (state.groupId = v.groupId),
  ],
  ['duplicates.removeFromGroup', () => ({ photoId: state.copyId }), () => {}],
  ['photos.rerun', () => ({ ids: [state.photoId], type: 'ocr' }), () => {}],
  ['photos.import', () => ({ paths: [dir] }), async (v) => ((state.importId = v.id), await importDone())],
  ['photos.chooseAndImport', () => ({}), async (v: ImportProgress) => ((state.importId = v.id), await importDone())],
  ['photos.importStatus', () => ({}), () => {}],
  ['photos.cancelImport', () => ({ id: state.importId }), () => {}],
  ['photos.reveal', () => ({ id: state.photoId }), () => expect(revealed).toEqual([path.join(dir, 'Canon_40D.jpg')])],
  ['photos.remove', () => ({ ids: [state.photoId] }), (v) => (state.removal = v.undo)],
  ['photos.undoRemove', () => state.removal, () => {}],
  ['settings.apiKeyStatus', () => ({}), () => {}],
  ['settings.setApiKey', () => ({ apiKey: null }), () => {}],
  ['export.chooseFolder', () => ({}), (v) => expect(v).toEqual({ path: dir })],
  ['photos.chooseLocation', () => ({ kind: 'file' }), (v) => expect(v).toEqual({ path: path.join(dir, 'Canon_40D.jpg') })],
  ['photos.missingFolders', () => ({}), (v) => expect(v).toEqual({ items: [], folders: 0, photos: 0 })],
  ['photos.locate', () => ({ path: dir }), (v) => expect(v.kind).toBe('folder')],
  ['backups.list', () => ({}), (v) => (state.backup = v.items[0].name)],
  // Last: it replaces the library (and the core) behind the host.
  ['backups.restore', () => ({ name: state.backup }), (v) => expect(v.photos).toBe(1)],
];

describe('answers of the contract', () => {
  it('every call has a valid-call case here', () => {
    expect(CALL_NAMES.filter((n) => !steps.some(([s]) => s === n))).toEqual([]);
  });

  it('answers valid calls with values that satisfy the contract, exactly', async () => {
    for (const [name, input, after] of steps) {
      const r = await host.dispatch(name, input());
      expect(r, `${name}: ${JSON.stringify(r).slice(0, 300)}`).toMatchObject({ ok: true });
      if (!r.ok) continue;
      const parsed = calls[name].output.safeParse(r.value);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
      // Nothing outside the schema: the parsed value (unknown keys stripped) is the answer itself.
      expect(parsed.data, name).toEqual(JSON.parse(JSON.stringify(r.value)));
      await after(r.value);
    }
  }, 120_000);
});
