/**
 * The transport's limits agree with the contract's: for every call, the largest message the
 * contract accepts is built here, checked to be valid, measured against MAX_WIRE_REQUEST_BYTES
 * and sent through a real socket to a real server, which must answer it (not drop the socket).
 *
 * "Largest" counts bytes on the wire: a string of the maximum length made of a character that
 * JSON.stringify escapes to six bytes (U+0001), free-form JSON made of three-byte characters,
 * every number at its longest (Number.MAX_SAFE_INTEGER), every array full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, INPUT_LIMITS, calls, type CallName } from '../../src/shared/contract';
import { MAX_WIRE_REQUEST_BYTES } from '../../src/shared/wire-limits';
import { MAX_OWN_HISTORY_ENTRIES, MAX_OWN_HISTORY_JSON_CHARS } from '../../src/shared/dating/history/own-entries';
import { call, connect, startServerProcess, type ServerProcess } from '../support/browser-child';

const SIX = '\u0001'; // JSON-escaped as \u0001: six bytes per character
const THREE = '\u4e2d'; // 中: three UTF-8 bytes per character
const BIG = Number.MAX_SAFE_INTEGER;
const str = (n: number, c = SIX) => c.repeat(n);
const typeName = 'a'.repeat(60);

/** Lengths summing to exactly `total`, spread over `count` items. */
function spread(total: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));
}

const largest: Record<CallName, () => unknown> = {
  'app.health': () => ({}),
  'settings.get': () => ({}),
  'settings.update': () => ({
    workerCount: 16,
    jobRetentionDays: 3650,
    defaultScanPolicy: 'originals',
    aiBackend: 'openai-compatible',
    aiBaseUrl: str(500),
    aiModel: str(200),
    backupSchedule: 'weekly',
    backupKeepDaily: 366,
    backupKeepWeekly: 520,
    backupDir: '/' + str(4095),
    numericDateOrder: 'month-first',
  }),
  'settings.testAi': () => ({ aiBackend: 'openai-compatible', aiBaseUrl: str(500), aiModel: str(200) }),
  'jobs.list': () => ({
    statuses: ['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled'],
    types: Array(20).fill(typeName),
    subject: str(200),
    ids: Array(500).fill(BIG),
    beforeId: BIG,
    limit: 500,
  }),
  'jobs.types': () => ({}),
  'jobs.get': () => ({ id: BIG }),
  'jobs.counts': () => ({}),
  'jobs.enqueue': () => {
    const overhead = JSON.stringify({ k: '' }).length;
    return { type: typeName, payload: { k: str(INPUT_LIMITS.jobPayloadChars - overhead, THREE) }, priority: -100 };
  },
  'jobs.cancel': () => ({ id: BIG }),
  'jobs.retry': () => ({ id: BIG }),
  'jobs.retryAllFailed': () => ({ types: Array(20).fill(typeName) }),
  'jobs.setPaused': () => ({ paused: false }),
  'jobs.acknowledge': () => ({ ids: Array(10_000).fill(BIG) }),
  'photos.list': () => ({
    sort: 'imported',
    filter: 'needs_metadata',
    search: str(200),
    yearFrom: 1000,
    yearTo: 2999,
    cursor: { v: str(INPUT_LIMITS.cursorValueChars), id: BIG },
    ids: Array(500).fill(BIG),
    limit: 500,
  }),
  'photos.get': () => ({ id: BIG }),
  'photos.viewer': () => ({ id: BIG }),
  'photos.inView': () => ({ ids: Array(500).fill(BIG) }),
  'photos.remove': () => ({ ids: Array(100_000).fill(BIG) }),
  'photos.undoRemove': () => ({ first: BIG, last: BIG }),
  'photos.import': () => ({
    paths: spread(INPUT_LIMITS.importPathsChars, 1000).map((n) => '/' + str(n - 1)),
    confirmed: false,
    scanPolicy: 'originals',
  }),
  'photos.chooseAndImport': () => ({ scanPolicy: 'originals' }),
  'photos.locate': () => ({ path: '/' + str(4095), photoIds: Array(100_000).fill(BIG), folder: '/' + str(4095) }),
  'photos.missingFolders': () => ({}),
  'photos.chooseLocation': () => ({ kind: 'folder' }),
  'photos.importStatus': () => ({}),
  'photos.cancelImport': () => ({ id: -BIG }),
  'photos.rerun': () => ({ ids: Array(100_000).fill(BIG), type: 'ai_analysis' }),
  'photos.setNotes': () => ({ id: BIG, notes: str(20_000) }),
  'photos.setScanOverride': () => ({ id: BIG, override: 'original' }),
  'evidence.list': () => ({ photoId: BIG, includeSuperseded: false }),
  'evidence.review': () => ({ id: BIG, status: 'accepted', note: str(2000) }),
  'evidence.reviewMany': () => ({
    photoIds: Array(100_000).fill(BIG),
    source: 'duplicate',
    kind: 'estimate',
    from: 'rejected',
    status: 'accepted',
    note: str(2000),
  }),
  'evidence.addManual': () => ({ photoId: BIG, constraint: { type: 'circa', year: 2100, plusMinus: 50 }, note: str(2000) }),
  'evidence.updateManual': () => ({ id: BIG, constraint: { type: 'circa', year: 2100, plusMinus: 50 }, note: str(2000) }),
  'evidence.removeManual': () => ({ id: BIG }),
  'settings.apiKeyStatus': () => ({}),
  'settings.setApiKey': () => ({ apiKey: str(500) }),
  'photos.reveal': () => ({ id: BIG }),
  'history.last': () => ({ photoId: BIG }),
  'history.undo': () => ({ actionId: BIG, photoId: BIG }),
  'backups.list': () => ({}),
  'backups.restore': () => ({ name: `circa-${'a'.repeat(246)}.db` }),
  'export.chooseFolder': () => ({}),
  'duplicates.list': () => ({ view: 'unreviewed', offset: 1_000_000, limit: 200 }),
  'duplicates.confirm': () => ({ photoIds: Array(100).fill(BIG), preferredPhotoId: BIG }),
  'duplicates.notSame': () => ({ photoIds: Array(100).fill(BIG), from: Array(100).fill(BIG) }),
  'duplicates.proposeAgain': () => ({ photoIds: Array(100).fill(BIG), from: Array(100).fill(BIG) }),
  'duplicates.unconfirm': () => ({ groupId: BIG }),
  'duplicates.removeFromGroup': () => ({ photoId: BIG }),
  'duplicates.setPreferred': () => ({ groupId: BIG, photoId: BIG }),
  'historyEntries.list': () => ({}),
  'historyEntries.save': () => ({ entries: largestOwnHistory() }),
  'dating.readCaption': () => ({ text: str(20_000) }),
};

/** 500 entries, each with its longest note, then names of three-byte characters up to the list's length limit. */
function largestOwnHistory() {
  const entries = Array.from({ length: MAX_OWN_HISTORY_ENTRIES }, (_, i) => ({
    id: `e${i}`,
    kind: 'event',
    names: { en: [] as string[] },
    from: '1945-05-08',
    to: '1945-05-08',
    evidence: 'dates',
    source: { work: 'w', title: 't' },
    note: str(500, THREE),
  }));
  const name = str(120, THREE);
  let length = JSON.stringify(entries).length;
  for (let i = 0; length + name.length + 3 <= MAX_OWN_HISTORY_JSON_CHARS; i = (i + 1) % entries.length) {
    const names = entries[i].names.en;
    if (names.length >= 20) break;
    names.push(name);
    length += name.length + 2 + (names.length > 1 ? 1 : 0);
  }
  return entries;
}

const wireBytes = (name: string, input: unknown) =>
  Buffer.byteLength(JSON.stringify({ id: -Number.MAX_SAFE_INTEGER, call: name, input }));

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('transport limits agree with the contract', () => {
  it('every call has its largest valid message here', () => {
    expect(CALL_NAMES.filter((n) => !(n in largest))).toEqual([]);
  });

  it.each(CALL_NAMES)('%s: its largest valid message fits the frame limit', (name) => {
    const input = largest[name]();
    const parsed = calls[name].input.safeParse(input);
    expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    expect(wireBytes(name, input)).toBeLessThanOrEqual(MAX_WIRE_REQUEST_BYTES);
  });

  it('the limit is not far above the largest message (it bounds what one socket can make main hold)', () => {
    const biggest = Math.max(...CALL_NAMES.map((n) => wireBytes(n, largest[n]())));
    expect(biggest).toBeGreaterThan(MAX_WIRE_REQUEST_BYTES * 0.6);
  });

  it('inputs just past the new bounds are refused by the contract', () => {
    const overPaths = { paths: spread(INPUT_LIMITS.importPathsChars + 1, 1000).map((n) => '/' + 'p'.repeat(n - 1)) };
    expect(calls['photos.import'].input.safeParse(overPaths).success).toBe(false);
    const overPayload = { type: 'metadata', payload: { k: 'x'.repeat(INPUT_LIMITS.jobPayloadChars) } };
    expect(calls['jobs.enqueue'].input.safeParse(overPayload).success).toBe(false);
    const overCursor = { cursor: { v: 'x'.repeat(INPUT_LIMITS.cursorValueChars + 1), id: 1 } };
    expect(calls['photos.list'].input.safeParse(overCursor).success).toBe(false);
  });

  it('each largest message gets through a real socket and is answered', async () => {
    const ws = await connect(server);
    try {
      let id = 0;
      for (const name of CALL_NAMES) {
        const result = await call(ws, ++id, name, largest[name]());
        // Answered on its merits (not_found, unknown job type…), never refused by the contract or the transport.
        expect(result, name).toHaveProperty('ok');
        if (!result.ok) expect(result.error.message, name).not.toMatch(/^Invalid input for|^Malformed request/);
      }
    } finally {
      ws.close();
    }
    expect(server.exit).toBeNull();
  }, 120_000);
});
