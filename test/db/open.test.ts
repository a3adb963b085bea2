import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/open';
import { NewerSchemaError } from '../../src/main/db/migrate';
import { appPaths } from '../../src/main/app-paths';
import { tempDir } from '../support/core';

const migrationsFolder = appPaths().migrations;
const open = (file: string) => openDatabase({ file, migrationsFolder });

describe('library database', () => {
  it('migrates an empty library and creates every table', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    const tables = db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['photos', 'evidence', 'background_jobs', 'audit_events', 'settings']));
    expect(db.migration.applied).toBe(db.migration.schemaVersion);
    await db.close();
  });

  it('has its pragmas in effect', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    await db.close();
  });

  it('reopens without re-running migrations and keeps data', async () => {
    const file = path.join(tempDir(), 'circa.db');
    const a = open(file);
    a.immediate(() => a.sqlite.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('k', '1', 0)").run());
    await a.close();
    const b = open(file);
    expect(b.migration.applied).toBe(0);
    expect(b.sqlite.prepare("SELECT value FROM settings WHERE key = 'k'").pluck().get()).toBe('1');
    await b.close();
  });

  it('immediate() takes the write lock up front (BEGIN IMMEDIATE)', async () => {
    const file = path.join(tempDir(), 'circa.db');
    const db = open(file);
    const other = new Database(file, { timeout: 0 });
    db.immediate(() => {
      // While our transaction is open, even before we wrote anything, another writer cannot start.
      expect(() => other.prepare('BEGIN IMMEDIATE').run()).toThrow(/locked|busy/i);
    });
    other.close();
    await db.close();
  });

  it('refuses a library written by a newer schema, without touching it', async () => {
    const file = path.join(tempDir(), 'circa.db');
    await open(file).close();
    const raw = new Database(file);
    raw.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', Date.now() + 10 ** 10);
    raw.close();
    const before = fs.readFileSync(file);
    expect(() => open(file)).toThrow(NewerSchemaError);
    expect(() => open(file)).toThrow(/newer version of Circa/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('enforces job-state invariants with CHECK constraints', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    const insert = (status: string, finishedAt: number | null, claimedBy: string | null, lease: number | null) =>
      db.sqlite
        .prepare(
          `INSERT INTO background_jobs (type, status, payload, max_retries, run_after, created_at, updated_at, finished_at, claimed_by, lease_expires_at)
           VALUES ('x', ?, '{}', 1, 0, 0, 0, ?, ?, ?)`,
        )
        .run(status, finishedAt, claimedBy, lease);
    expect(() => insert('bogus', null, null, null)).toThrow(/CHECK/);
    expect(() => insert('success', null, null, null)).toThrow(/CHECK/); // terminal without finished_at
    expect(() => insert('queued', 5, null, null)).toThrow(/CHECK/); // finished_at on an active job
    expect(() => insert('running', null, null, null)).toThrow(/CHECK/); // running without a lease
    expect(() => insert('queued', null, 'me', 5)).toThrow(/CHECK/); // a lease on a queued job
    expect(insert('running', null, 'me', 5).changes).toBe(1);
    await db.close();
  });

  it('keeps the audit ledger append-only', async () => {
    const db = open(path.join(tempDir(), 'circa.db'));
    db.sqlite
      .prepare("INSERT INTO audit_events (at, event, actor, data, prev_hash, hash) VALUES (0, 'e', 'a', '{}', 'p', 'h')")
      .run();
    expect(() => db.sqlite.prepare("UPDATE audit_events SET event = 'x'").run()).toThrow(/append-only/);
    expect(() => db.sqlite.prepare('DELETE FROM audit_events').run()).toThrow(/append-only/);
    await db.close();
  });
});
