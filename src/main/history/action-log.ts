/**
 * The archivist's undo history, kept in main as one audited row per action (Tropy keeps undo with
 * each command). An action records every row it changed — what the row was before and after — so
 * undo restores exactly that, and only while every row is still as the action left it: if a later
 * run or another window changed something since, undo refuses with the reason and changes nothing.
 *
 * Undo works per photo, newest first: the action undone must be the latest one not yet undone on
 * every photo it touched (a bulk review is undone as one, across all its photos). The history
 * lives in the library, so it survives a reload, and each undo is one write transaction, so two
 * windows cannot interleave it.
 */
import type Database from 'better-sqlite3';
import type { ActionSummary } from '../../shared/contract';
import { CallFailure } from '../../shared/result';
import type { AuditLedger } from '../audit/ledger';

/** What undo can restore of an evidence row. */
const EVIDENCE_FIELDS = [
  'kind',
  'earliest',
  'latest',
  'precision',
  'confidence',
  'summary',
  'details',
  'review_status',
  'review_note',
  'superseded_at',
] as const;
/** What undo can restore of a photo row. */
const PHOTO_FIELDS = ['notes', 'scan_override', 'is_scan', 'scan_reason'] as const;

type Snapshot = Record<string, unknown>;

export type ActionKind = 'review' | 'review_many' | 'manual_add' | 'manual_edit' | 'manual_remove' | 'notes' | 'scan_override';

export interface ActionWording {
  /** What was done: "Accepted #49". */
  label: string;
  /** What undoing it leaves: "#49 is pending again". */
  revertNote: string;
}

/** Names the rows an action is about to change, before it changes them. */
export interface ActionTracker {
  evidence(id: number): void;
  /** A row the action created (undo takes it out of the estimate, keeping it in the history). */
  created(id: number): void;
  photo(id: number): void;
}

interface Tracked {
  table: 'evidence' | 'photos';
  id: number;
  photoId: number;
  before: Snapshot | null;
}

interface ChangeRow {
  photo_id: number;
  evidence_id: number | null;
  before: string | null;
  after: string;
}

interface ActionRow {
  id: number;
  at: number;
  kind: ActionKind;
  label: string;
  revert_note: string;
  undone_at: number | null;
}

export interface UndoResult {
  undone: ActionSummary;
  message: string;
  photoIds: number[];
}

const same = (a: Snapshot, b: Snapshot) => JSON.stringify(a) === JSON.stringify(b);

export class ActionLog {
  private readonly s: Record<string, Database.Statement>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly ledger: AuditLedger,
  ) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      evidence: p(`SELECT photo_id, ${EVIDENCE_FIELDS.join(', ')} FROM evidence WHERE id = ?`),
      photo: p(`SELECT ${PHOTO_FIELDS.join(', ')} FROM photos WHERE id = ?`),
      insertAction: p(`INSERT INTO user_actions (at, kind, label, revert_note) VALUES (?, ?, ?, ?) RETURNING id`),
      insertChange: p(`INSERT INTO user_action_changes (action_id, photo_id, evidence_id, before, after) VALUES (?, ?, ?, ?, ?)`),
      action: p(`SELECT * FROM user_actions WHERE id = ?`),
      changes: p(`SELECT photo_id, evidence_id, before, after FROM user_action_changes WHERE action_id = ? ORDER BY id`),
      lastForPhoto: p(
        `SELECT a.* FROM user_actions a WHERE a.undone_at IS NULL
            AND a.id = (SELECT max(c.action_id) FROM user_action_changes c JOIN user_actions b ON b.id = c.action_id
                         WHERE c.photo_id = ? AND b.undone_at IS NULL)`,
      ),
      photoCount: p(`SELECT count(DISTINCT photo_id) FROM user_action_changes WHERE action_id = ?`).pluck(),
      markUndone: p(`UPDATE user_actions SET undone_at = ? WHERE id = ? AND undone_at IS NULL`),
      supersede: p(`UPDATE evidence SET superseded_at = ?, updated_at = ? WHERE id = ? AND superseded_at IS NULL`),
      restoreEvidence: p(
        `UPDATE evidence SET ${EVIDENCE_FIELDS.map((f) => `${f} = @${f}`).join(', ')}, updated_at = @now WHERE id = @id`,
      ),
      restorePhoto: p(
        `UPDATE photos SET ${PHOTO_FIELDS.map((f) => `${f} = @${f}`).join(', ')}, updated_at = @now WHERE id = @id`,
      ),
    };
  }

  /**
   * In tx. Runs `change`, which names through the tracker every row it is about to change, and
   * records it as one action. Nothing is recorded when nothing changed; the action's summary is
   * returned otherwise. `wording` is asked after the change, so it can describe the result.
   */
  record<T>(
    kind: ActionKind,
    change: (track: ActionTracker) => T,
    wording: (result: T) => ActionWording,
  ): { result: T; action: ActionSummary | null } {
    if (!this.sqlite.inTransaction) throw new Error('actions must be recorded inside a transaction');
    const tracked = new Map<string, Tracked>();
    const track = (table: Tracked['table'], id: number, existed: boolean) => {
      const key = `${table}:${id}`;
      if (tracked.has(key)) return;
      const before = existed ? (this.snapshot(table, id) ?? null) : null;
      const photoId = table === 'photos' ? id : existed ? (before as Snapshot & { photo_id: number }).photo_id : 0;
      tracked.set(key, { table, id, photoId, before: before && strip(before) });
    };
    const result = change({
      evidence: (id) => track('evidence', id, true),
      created: (id) => track('evidence', id, false),
      photo: (id) => track('photos', id, true),
    });
    const changes: { photoId: number; evidenceId: number | null; before: Snapshot | null; after: Snapshot }[] = [];
    for (const t of tracked.values()) {
      const now = this.snapshot(t.table, t.id);
      if (!now) continue;
      const photoId = t.table === 'photos' ? t.id : (now as { photo_id: number }).photo_id;
      const after = strip(now);
      if (t.before && same(t.before, after)) continue;
      changes.push({ photoId, evidenceId: t.table === 'evidence' ? t.id : null, before: t.before, after });
    }
    if (!changes.length) return { result, action: null };
    const { label, revertNote } = wording(result);
    const at = Date.now();
    const { id } = this.s.insertAction.get(at, kind, label, revertNote) as { id: number };
    for (const c of changes)
      this.s.insertChange.run(id, c.photoId, c.evidenceId, c.before && JSON.stringify(c.before), JSON.stringify(c.after));
    return { result, action: { id, at, kind, label, photoCount: new Set(changes.map((c) => c.photoId)).size } };
  }

  /** The action undo would reverse on this photo, or null. */
  last(photoId: number): ActionSummary | null {
    const row = this.s.lastForPhoto.get(photoId) as ActionRow | undefined;
    return row ? this.summary(row) : null;
  }

  /**
   * In tx. Reverses the action, if it is still the latest on each of its photos and every row is as
   * it left it; otherwise throws a `conflict` that says why. `recompute` re-derives each photo's
   * estimate afterwards.
   */
  undo(actionId: number, photoId: number | undefined, recompute: (photoId: number) => void): UndoResult {
    const action = this.s.action.get(actionId) as ActionRow | undefined;
    if (!action) throw new CallFailure('not_found', `There is no action ${actionId} to undo`);
    const refuse = (why: string): never => {
      throw new CallFailure('conflict', `Cannot undo “${action.label}”: ${why}. Nothing was undone.`);
    };
    if (action.undone_at != null) refuse('it was already undone (perhaps in another window)');
    const changes = this.s.changes.all(actionId) as ChangeRow[];
    const photoIds = [...new Set(changes.map((c) => c.photo_id))];
    if (photoId !== undefined && !photoIds.includes(photoId)) refuse(`it did not change photo ${photoId}`);
    for (const p of photoIds) {
      const latest = this.s.lastForPhoto.get(p) as ActionRow | undefined;
      if (latest && latest.id !== actionId)
        refuse(`a later action on ${photoIds.length > 1 ? `photo ${p}` : 'this photo'} comes first (“${latest.label}”)`);
    }
    for (const c of changes) {
      const table = c.evidence_id != null ? 'evidence' : 'photos';
      const now = this.snapshot(table, c.evidence_id ?? c.photo_id);
      const after = JSON.parse(c.after) as Snapshot;
      if (!now) refuse(c.evidence_id != null ? `finding #${c.evidence_id} is gone` : `photo ${c.photo_id} is gone`);
      if (!same(strip(now!), after)) refuse(whatChanged(c, strip(now!), after));
    }
    const at = Date.now();
    for (const c of changes) {
      const before = c.before ? (JSON.parse(c.before) as Snapshot) : null;
      if (c.evidence_id == null) this.s.restorePhoto.run({ ...before, id: c.photo_id, now: at });
      else if (before) this.s.restoreEvidence.run({ ...before, id: c.evidence_id, now: at });
      else this.s.supersede.run(at, at, c.evidence_id);
    }
    this.s.markUndone.run(at, actionId);
    this.ledger.append(
      photoIds.map((p) => ({
        event: 'action_undone',
        actor: 'user',
        photoId: p,
        data: { actionId, kind: action.kind, label: action.label },
      })),
    );
    photoIds.forEach(recompute);
    return { undone: this.summary(action), message: `Undone: ${action.label}. ${action.revert_note}.`, photoIds };
  }

  private summary(row: ActionRow): ActionSummary {
    return {
      id: row.id,
      at: row.at,
      kind: row.kind,
      label: row.label,
      photoCount: this.s.photoCount.get(row.id) as number,
    };
  }

  private snapshot(table: 'evidence' | 'photos', id: number): Snapshot | undefined {
    return (table === 'evidence' ? this.s.evidence.get(id) : this.s.photo.get(id)) as Snapshot | undefined;
  }
}

function strip(row: Snapshot): Snapshot {
  const { photo_id: _photoId, ...rest } = row;
  return rest;
}

/** Why a row no longer is what the action left, in words. */
function whatChanged(c: ChangeRow, now: Snapshot, after: Snapshot): string {
  if (c.evidence_id == null)
    return now.notes !== after.notes ? 'the notes were edited since' : 'whether it is a scan was changed since';
  const id = `#${c.evidence_id}`;
  if (now.superseded_at != null && after.superseded_at == null) return `${id} was replaced by a later run or deleted since`;
  if (now.superseded_at == null && after.superseded_at != null) return `${id} was restored since`;
  if (now.review_status !== after.review_status) return `${id} was reviewed again since (it is now ${now.review_status})`;
  return `${id} was changed since`;
}
