/**
 * The append-only, hash-chained audit ledger. Each row's hash covers the previous row's hash and
 * its own fields, so editing or removing any row breaks every hash after it. Rows are appended in
 * the same transaction as the change they record (the caller's transaction).
 *
 * A chain alone cannot prove it is complete: cut off its end, or rewrite a row and recompute every
 * later hash, and it still links up. So each append also signs its last row and the chain's head
 * (last event, count, hash) with the library's audit key, which is kept outside the database
 * (signing.ts), in the same transaction. Before appending, the ledger checks that the head still
 * matches the chain's end; if not — or if the append-only triggers are gone, or the key — it
 * refuses to append (which would launder the damage into a fresh signature) and says so once.
 */
import type Database from 'better-sqlite3';
import type { Logger } from '../logger';
import { missingGuards, restoreGuards } from './guards';
import { AuditKey, GENESIS_HASH, rowHash, type ChainHead } from './signing';
import { prepareHeadRead, readHead, verifyLedger, type StoredHead, type VerifyReport } from './verify';
import { readCounter, rollbackFinding, writeCounter } from './rollback-counter';

export { GENESIS_HASH } from './signing';
export type { VerifyReport } from './verify';

export interface AuditEntry {
  event: string;
  actor: string;
  jobId?: number | null;
  photoId?: number | null;
  data?: Record<string, unknown>;
  at?: number;
}

/** Appending was refused: the ledger no longer matches its signed head (see `problem`). */
export class AuditLedgerBrokenError extends Error {
  override readonly name = 'AuditLedgerBrokenError';
  /** Treated as machinery: the queue backs off instead of failing jobs over it. */
  readonly code = 'CIRCA_AUDIT_BROKEN';
}

export interface LedgerOptions {
  /** The library's audit key (created on first open). */
  keyFile: string;
  /**
   * The library's rollback counter (rollback-counter.ts), beside the key; without it (a staged
   * restore, unit tests) no rollback is looked for.
   */
  counterFile?: string;
  /** How often, at most, the counter is brought up to date while appends go on. */
  counterEveryMs?: number;
  log?: Logger;
}

/** Rows per multi-row INSERT when appending many entries at once (10 parameters each). */
const CHUNK = 32;
const COLUMNS = 'INSERT INTO audit_events (id, at, event, actor, job_id, photo_id, data, prev_hash, hash, mac) VALUES ';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

export class AuditLedger {
  /** Why appends are refused, or null. */
  problem: string | null = null;
  private key: AuditKey | null = null;
  /** A head this process signed or checked, so an unchanged head is not re-checked every append. */
  private trusted: StoredHead | null = null;
  /**
   * The furthest event seen signed and committed (read outside any transaction, or from the
   * counter): a head that ends before it was rolled back. Never taken from a write in progress,
   * which may itself roll back.
   */
  private furthest = 0;
  private counterTimer: NodeJS.Timeout | null = null;
  private readonly tip: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly insertChunk: Database.Statement;
  private readonly putHead: Database.Statement;
  private readonly getHead: Database.Statement;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly opts: LedgerOptions,
  ) {
    this.getHead = prepareHeadRead(sqlite);
    this.tip = sqlite.prepare('SELECT id, hash FROM audit_events ORDER BY id DESC LIMIT 1');
    this.insert = sqlite.prepare(COLUMNS + ROW);
    this.insertChunk = sqlite.prepare(COLUMNS + Array(CHUNK).fill(ROW).join(', '));
    this.putHead = sqlite.prepare(
      `INSERT INTO audit_head (id, last_id, count, hash, mac, updated_at) VALUES (1, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, count = excluded.count, hash = excluded.hash,
         mac = excluded.mac, updated_at = excluded.updated_at`,
    );
    this.open();
  }

  /** Appends entries in order. Must run inside the caller's write transaction. */
  append(entries: readonly AuditEntry[]): void {
    if (!entries.length) return;
    if (!this.sqlite.inTransaction) throw new Error('audit entries must be appended inside a transaction');
    if (this.problem) throw new AuditLedgerBrokenError(this.problem);
    const head = readHead(this.sqlite, this.getHead);
    const tip = this.currentTip();
    const why = this.mismatch(head, tip);
    if (why) {
      this.refuse(why);
      throw new AuditLedgerBrokenError(this.problem!);
    }
    this.write(entries, tip, head!.count);
  }

  verify(): VerifyReport {
    return verifyLedger(this.sqlite, this.key, this.opts.keyFile, this.opts.counterFile);
  }

  /** Brings the rollback counter up to the committed head now (the library is closing). */
  flushCounter(): void {
    if (this.counterTimer) clearTimeout(this.counterTimer);
    this.counterTimer = null;
    if (!this.opts.counterFile || !this.key || this.problem || this.sqlite.inTransaction || !this.sqlite.open) return;
    const head = readHead(this.sqlite);
    if (!head?.mac || !AuditKey.same(head.mac, this.key.signHead(head))) return;
    this.furthest = Math.max(this.furthest, head.lastId);
    try {
      writeCounter(this.opts.counterFile, this.key, { lastId: head.lastId, hash: head.hash });
    } catch (err) {
      this.opts.log?.warn(`the audit counter could not be written: ${(err as Error).message}`);
    }
  }

  private scheduleCounter(): void {
    if (!this.opts.counterFile || this.counterTimer) return;
    this.counterTimer = setTimeout(() => {
      this.counterTimer = null;
      // Inside a transaction the head may yet roll back: wait for it to end.
      if (this.sqlite.inTransaction) return this.scheduleCounter();
      this.flushCounter();
    }, this.opts.counterEveryMs ?? 1000);
    this.counterTimer.unref();
  }

  /**
   * `circa-worker repair-audit`: puts back removed triggers, creates a key if it is gone, and
   * appends an `audit.reanchored` event that records what was wrong and the head it replaces —
   * the break stays on record; appends resume from the chain as it now stands. `otherKey`: the
   * events before were signed with another key (a restored backup of another library).
   */
  reanchor(reason: string, actor = 'user', o: { otherKey?: boolean } = {}): void {
    this.sqlite
      .transaction(() => {
        const restoredTriggers = restoreGuards(this.sqlite);
        let key: AuditKey | null = null;
        try {
          key = AuditKey.read(this.opts.keyFile);
        } catch {
          /* unreadable: replaced below */
        }
        const newKey = !key;
        this.key = key ?? AuditKey.replace(this.opts.keyFile);
        const previous = readHead(this.sqlite);
        const tip = this.currentTip();
        const count = this.sqlite.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
        const previousHead = previous && { lastId: previous.lastId, count: previous.count, hash: previous.hash };
        this.write(
          [
            {
              event: 'audit.reanchored',
              actor,
              data: {
                reason,
                newKey,
                ...(o.otherKey ? { otherKey: true } : {}),
                restoredTriggers,
                previousHead,
                found: { lastId: tip.id, count, hash: tip.hash },
              },
            },
          ],
          tip,
          count,
        );
      })
      .immediate();
    this.problem = null;
    // The break is on record: the counter starts again from the head just written.
    this.furthest = this.trusted?.lastId ?? 0;
    if (this.opts.counterFile && this.trusted)
      writeCounter(this.opts.counterFile, this.key!, { lastId: this.trusted.lastId, hash: this.trusted.hash }, false);
  }

  private open(): void {
    try {
      this.key = AuditKey.read(this.opts.keyFile);
    } catch (err) {
      return this.refuse((err as Error).message);
    }
    const missing = missingGuards(this.sqlite);
    if (missing.length) return this.refuse(`the append-only trigger(s) ${missing.join(', ')} were removed`);
    const head = readHead(this.sqlite);
    if (head?.mac === null && !this.key) return this.anchor();
    const why = this.mismatch(head, this.currentTip()) ?? this.rolledBack(head!);
    if (why) this.refuse(why);
  }

  /** Checks the head against the counter kept outside the database; creates the counter if none. */
  private rolledBack(head: StoredHead): string | null {
    if (!this.opts.counterFile || !this.key) return null;
    const { point, problem } = readCounter(this.opts.counterFile, this.key);
    if (problem) return problem;
    if (!point) {
      writeCounter(this.opts.counterFile, this.key, { lastId: head.lastId, hash: head.hash });
      return null;
    }
    this.furthest = Math.max(this.furthest, point.lastId);
    return rollbackFinding(this.sqlite, point, head.lastId)?.reason ?? null;
  }

  /**
   * First open of a new library, or of one from before the ledger was signed: create the key
   * and sign the chain as it is (after checking its links). Events already there are recorded
   * as such by an `audit.anchored` event.
   */
  private anchor(): void {
    const broken = this.sqlite
      .transaction((): string | null => {
        const head = readHead(this.sqlite);
        if (head?.mac) {
          // Another process anchored it a moment ago.
          this.key = AuditKey.read(this.opts.keyFile);
          return this.mismatch(head, this.currentTip());
        }
        const links = verifyLedger(this.sqlite, null, this.opts.keyFile).brokenAt;
        if (links) return `event ${links.id}: ${links.reason}`;
        const tip = this.currentTip();
        const count = this.sqlite.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
        this.key = AuditKey.create(this.opts.keyFile);
        if (count) this.write([{ event: 'audit.anchored', actor: 'system', data: { earlierEvents: count } }], tip, count);
        else this.sign({ lastId: 0, count: 0, hash: GENESIS_HASH });
        return null;
      })
      .immediate();
    if (broken) this.refuse(broken);
  }

  private currentTip(): { id: number; hash: string } {
    return (this.tip.get() as { id: number; hash: string } | undefined) ?? { id: 0, hash: GENESIS_HASH };
  }

  /** Why the signed head does not vouch for the chain's end, or null when it does. */
  private mismatch(head: StoredHead | null, tip: { id: number; hash: string }): string | null {
    if (!head) return 'its signed head (audit_head) was removed';
    if (!this.key) return `its key (${this.opts.keyFile}) is missing`;
    if (!this.trusted || !sameHead(head, this.trusted)) {
      if (!AuditKey.same(head.mac, this.key.signHead(head))) return 'its signed head was edited outside Circa';
      // An older head is as validly signed as the current one: it must not end before what was signed.
      if (head.lastId < this.furthest)
        return `it was rolled back: its signed head ends at event ${head.lastId}, but Circa had signed it up to event ${this.furthest}`;
      this.trusted = head;
    }
    if (tip.id < head.lastId)
      return `it was truncated: the signed head ends at event ${head.lastId}, the ledger at event ${tip.id}`;
    if (tip.id > head.lastId) return `events after ${head.lastId} were added outside Circa`;
    if (tip.hash !== head.hash) return `it was rewritten: event ${tip.id} no longer matches the signed head`;
    return null;
  }

  /** Writes the rows after `tip` (ids continue from it), signs the last one and the new head. */
  private write(entries: readonly AuditEntry[], tip: { id: number; hash: string }, count: number): void {
    const now = Date.now();
    let prev = tip.hash;
    let id = tip.id;
    const last = tip.id + entries.length;
    let i = 0;
    const build = (from: number, to: number): unknown[] => {
      const params: unknown[] = [];
      for (let j = from; j < to; j++) {
        const e = entries[j];
        const at = e.at ?? now;
        const data = JSON.stringify(e.data ?? {});
        const jobId = e.jobId ?? null;
        const photoId = e.photoId ?? null;
        const prevHash = prev;
        id++;
        prev = rowHash(prevHash, at, e.event, e.actor, jobId, photoId, data);
        params.push(
          id,
          at,
          e.event,
          e.actor,
          jobId,
          photoId,
          data,
          prevHash,
          prev,
          id === last ? this.key!.signEvent(id, prev) : null,
        );
      }
      return params;
    };
    // Whole chunks through one multi-row INSERT (rows keep their order and explicit ids).
    for (; i + CHUNK <= entries.length; i += CHUNK) this.insertChunk.run(build(i, i + CHUNK));
    for (; i < entries.length; i++) this.insert.run(build(i, i + 1));
    this.sign({ lastId: last, count: count + entries.length, hash: prev });
  }

  private sign(head: ChainHead): void {
    const mac = this.key!.signHead(head);
    this.putHead.run(head.lastId, head.count, head.hash, mac, Date.now());
    this.trusted = { ...head, mac };
    this.scheduleCounter();
  }

  private refuse(why: string): void {
    if (this.problem) return;
    this.problem =
      `The audit ledger is broken: ${why}. Circa will not add to it (jobs and reviews wait) until this is looked at: ` +
      'run "circa-worker verify-audit" to see what changed, then "circa-worker repair-audit" to record the break in the ledger and go on.';
    this.opts.log?.error(this.problem);
  }
}

function sameHead(a: StoredHead, b: StoredHead): boolean {
  return a.lastId === b.lastId && a.count === b.count && a.hash === b.hash && a.mac === b.mac;
}
