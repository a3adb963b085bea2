import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName } from '../../src/shared/contract';
import type { Core } from '../../src/main/core/core';
import { openTestCore } from '../support/core';
import { villageFete } from '../support/history-entries';

/** A valid entry of the archivist's own, to spoil one field at a time. */
const ownEntry = villageFete;

/** A wrong-typed value for each call that has required or constrained fields. */
const wrongValues: Partial<Record<CallName, unknown[]>> = {
  'jobs.list': [{ limit: 0 }, { limit: 10_000 }, { statuses: ['sleeping'] }, { beforeId: -3 }, { ids: new Array(501).fill(1) }],
  'jobs.get': [{}, { id: 0 }, { id: 'seven' }, { id: 1.5 }],
  'jobs.enqueue': [{}, { type: 'metadata' }, { type: 'Robert; DROP TABLE', payload: {} }, { type: 'metadata', payload: 'x' }],
  'jobs.cancel': [{}, { id: -1 }],
  'jobs.retry': [{ id: null }, { id: 1, force: 'yes' }],
  'jobs.acknowledge': [{}, { ids: [] }, { all: false }, { ids: [0] }, { ids: [1], all: true }],
  'jobs.retryAllFailed': [{ types: 'all' }],
  'jobs.setPaused': [{}, { paused: 'yes' }],
  'photos.list': [
    { sort: 'random' },
    { filter: 'pretty' },
    { limit: 501 },
    { cursor: { v: {}, id: 1 } },
    { search: 'x'.repeat(201) },
    { yearFrom: 2001, yearTo: 1999 },
    { yearMode: 'sometimes' },
    { includeClues: 'yes' },
  ],
  'photos.get': [{}, { id: -5 }],
  'photos.viewer': [{}, { id: 0 }, { id: 'big' }, { id: 1, page: 0 }, { id: 1, page: 1.5 }, { id: 1, page: 10_001 }],
  'photos.inView': [{}, { ids: [0] }, { ids: new Array(501).fill(1) }, { ids: 'visible' }],
  'photos.import': [
    {},
    { paths: [] },
    { paths: [''] },
    { paths: ['a\0b'] },
    { paths: 'not-a-list' },
    { paths: ['/x'], scanPolicy: 'maybe' },
  ],
  'photos.chooseAndImport': [{ scanPolicy: 'scans please' }],
  'photos.locate': [
    {},
    { path: '' },
    { path: 'a\0b' },
    { path: '/x', photoIds: [] },
    { path: '/x', photoIds: [0] },
    { path: '/x', folder: '' },
    { path: '/x', extra: true },
  ],
  'photos.chooseLocation': [{}, { kind: 'anything' }],
  'photos.cancelImport': [{}, { id: 'x' }],
  'photos.rerun': [{ ids: [] }, { ids: [1], type: 'rm -rf' }, { ids: [0], type: 'metadata' }],
  'photos.reveal': [{}, { id: 0 }],
  'photos.setNotes': [{ id: 1 }, { id: 1, notes: 'x'.repeat(20_001) }],
  'photos.remove': [{}, { ids: [] }, { ids: [0] }, { ids: ['1'] }],
  'photos.undoRemove': [{}, { first: 1 }, { first: 0, last: 1 }, { first: 1, last: 2, extra: true }],
  'evidence.list': [{}, { photoId: 'one' }],
  'evidence.review': [
    { id: 1 },
    { id: 1, status: 'maybe' },
    { id: 1, status: 'accepted', note: 'x'.repeat(2001) },
    { id: 1, status: 'accepted', undo: true },
  ],
  'evidence.addManual': [
    { photoId: 1, note: '' },
    { photoId: 1, constraint: { type: 'not_before', year: 1700 }, note: '' },
    { photoId: 1, constraint: { type: 'between', from: 1950, to: 1940 }, note: '' },
    { photoId: 1, constraint: { type: 'circa', year: 1937, plusMinus: 500 }, note: '' },
    { photoId: 1, constraint: { type: 'sometime' }, note: '' },
    { photoId: 1, constraint: { type: 'not_before', year: 1923, month: 2, day: 30 }, note: '' },
    {
      photoId: 1,
      constraint: { type: 'between', from: { year: 1945, month: 5, day: 10 }, to: { year: 1945, month: 5, day: 3 } },
      note: '',
    },
  ],
  'evidence.updateManual': [{ id: 1, constraint: { type: 'not_after' }, note: '' }],
  'evidence.removeManual': [{}, { id: 'x' }],
  'evidence.reviewMany': [
    { photoIds: [], source: 'exif', status: 'accepted' },
    { photoIds: [1], source: 'gossip', status: 'accepted' },
    { photoIds: [1], source: 'exif', status: 'accepted', from: 'accepted' },
    { photoIds: [1], source: 'exif', kind: 'hunch', status: 'rejected' },
  ],
  'photos.setScanOverride': [{ id: 1 }, { id: 1, override: 'maybe' }, { id: 0, override: null }],
  'history.last': [{}, { photoId: 0 }],
  'history.undo': [{}, { actionId: 'last' }, { actionId: 1, photoId: -2 }],
  'settings.testAi': [{}, { aiBackend: 'ollama' }, { aiBackend: 'skynet', aiBaseUrl: '', aiModel: '' }],
  'settings.setApiKey': [{}, { apiKey: '' }, { apiKey: 'k'.repeat(501) }],
  'settings.update': [
    { workerCount: 0 },
    { workerCount: 'many' },
    { aiBackend: 'skynet' },
    { jobRetentionDays: 1.5 },
    { defaultScanPolicy: 'everything' },
    { backupSchedule: 'hourly' },
    { backupKeepDaily: -1 },
    { backupDir: 'relative/folder' },
    { backupDir: '/a\0b' },
    { numericDateOrder: 'year-first' },
  ],
  'dating.readCaption': [{}, { text: 1906 }, { text: 'x'.repeat(20_001) }, { text: '1906', photoId: 1 }],
  'backups.restore': [
    {},
    { name: '../../etc/passwd' },
    { name: '/tmp/circa-x.db' },
    { name: 'circa-a/../../b.db' },
    { name: 'holiday.jpg' },
    { name: `circa-${'x'.repeat(300)}.db` },
  ],
  'duplicates.list': [{ view: 'maybe' }, { limit: 0 }, { limit: 201 }, { offset: -1 }],
  'duplicates.confirm': [{}, { photoIds: [1] }, { photoIds: [1, 0] }, { photoIds: [1, 2], preferredPhotoId: 'first' }],
  'duplicates.notSame': [{ photoIds: [1] }, { photoIds: [], from: [2] }, { photoIds: [1], from: new Array(101).fill(2) }],
  'duplicates.proposeAgain': [{ from: [1] }, { photoIds: ['1'], from: [2] }],
  'duplicates.unconfirm': [{}, { groupId: 0 }],
  'duplicates.removeFromGroup': [{}, { photoId: -2 }],
  'duplicates.setPreferred': [{ groupId: 1 }, { groupId: 1, photoId: 1.5 }],
  'historyEntries.save': [
    {},
    { entries: 'V-E Day' },
    { entries: [{ ...ownEntry, id: 'Not An Id' }] },
    { entries: [{ ...ownEntry, names: {} }] },
    { entries: [{ ...ownEntry, names: { en: ['x'] } }] },
    { entries: [{ ...ownEntry, names: { klingon: ['Fete'] } }] },
    { entries: [{ ...ownEntry, source: undefined }] },
    { entries: [{ ...ownEntry, source: { work: '', title: 'x' } }] },
    { entries: [{ ...ownEntry, from: '1923-02-30' }] },
    { entries: [{ ...ownEntry, from: '1930', to: '1923' }] },
    { entries: [{ ...ownEntry, from: null, to: null }] },
    { entries: [{ ...ownEntry, evidence: 'maybe' }] },
    { entries: [{ ...ownEntry, yearly: { month: 13, day: 1, from: 1920 } }] },
    { entries: [ownEntry, ownEntry] },
    { entries: Array.from({ length: 501 }, (_, i) => ({ ...ownEntry, id: `e${i}` })) },
  ],
};

let core: Core;
beforeAll(() => {
  core = openTestCore({ runJobs: false });
});
afterAll(async () => {
  await core.close();
});

describe('IPC contract validation', () => {
  it.each(CALL_NAMES)('%s rejects malformed input with a typed error', async (name) => {
    for (const bad of ['a string', 42, [1, 2], { unexpectedField: true }, ...(wrongValues[name] ?? [])]) {
      const r = await core.dispatch(name, bad);
      expect(r.ok, `${name} accepted ${JSON.stringify(bad)}`).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_input');
        expect(r.error.message).toContain(name);
        expect(r.error.issues?.length).toBeGreaterThan(0);
      }
    }
  });

  it('every call in the contract has a test of its bad input', () => {
    // Calls whose only input is {} are covered by the generic cases above.
    const emptyInput = [
      'app.health',
      'settings.apiKeyStatus',
      'settings.get',
      'jobs.counts',
      'jobs.types',
      'photos.importStatus',
      'backups.list',
      'export.chooseFolder',
      'photos.missingFolders',
      'historyEntries.list',
    ];
    const needsSpecific = CALL_NAMES.filter((n) => !emptyInput.includes(n));
    expect(needsSpecific.filter((n) => !wrongValues[n])).toEqual([]);
  });

  it('rejects unknown calls and prototype tricks', async () => {
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 42, null]) {
      const r = await core.dispatch(name, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    }
  });

  it('turns domain failures into typed errors, not crashes', async () => {
    expect(await core.dispatch('jobs.get', { id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const r = await core.dispatch('jobs.enqueue', { type: 'metadata', payload: { photoId: 'x' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('photoId') } });
    const unknown = await core.dispatch('jobs.enqueue', { type: 'no_such_type', payload: {} });
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('Unknown job type') },
    });
  });
});
