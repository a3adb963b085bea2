/**
 * Duplicates: the same photograph found in different scans, group by group. To review, confirmed
 * ("same photograph") and ruled out ("not the same") each have a tab; the scan's state and a way
 * to start one are in the header. In a confirmed group accepted evidence travels between copies.
 *
 * Keyboard (outside text fields), like the evidence review: A same photograph, R not the same,
 * X not this copy / remove it from the group, P preferred original (the highlighted copy), U
 * unconfirm / propose again; ↑ ↓ (or K J) move between groups, ← → between copies, Enter opens
 * the highlighted copy; Ctrl/Cmd+Z undoes the last decision.
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../api/client';
import type { CallName, CallInput } from '../../../shared/contract';
import type { DuplicateGroup, DuplicateView } from '../../../shared/duplicates/contract';
import { duplicateViews } from '../../../shared/duplicates/contract';
import { navigate } from '../router';
import { plural } from '../format';
import { DuplicateGroupView, type GroupActions } from './duplicates/DuplicateGroupView';
import { DuplicateList } from './duplicates/DuplicateList';
import { VIEW_LABEL } from './duplicates/duplicateFormat';
import { useDuplicates, useScanJob } from './duplicates/useDuplicates';
import { useWindowKeys } from './useWindowKeys';

type Flash = { kind: 'ok' | 'error'; text: string };
/** A decision's way back: the call that reverses it. */
type Undo = { text: string; call: () => Promise<string | null> };

let rememberedView: DuplicateView = 'unreviewed';

async function run<N extends CallName>(name: N, input: CallInput<N>): Promise<string | null> {
  const r = await client.call(name, input);
  return r.ok ? null : r.error.message;
}

export function DuplicatesScreen() {
  const [view, setView] = useState<DuplicateView>(rememberedView);
  useEffect(() => {
    rememberedView = view;
  }, [view]);
  const { list, error, reload, more } = useDuplicates(view);
  const scan = useScanJob();
  const groups = list?.groups ?? [];

  // The highlighted group is kept by key; when it goes (decided), the one now in its place takes over.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const lastIndex = useRef(0);
  let index = groups.findIndex((g) => g.key === focusKey);
  if (index < 0) index = Math.min(lastIndex.current, groups.length - 1);
  lastIndex.current = Math.max(0, index);
  const group: DuplicateGroup | undefined = groups[index];
  const [copy, setCopy] = useState(0);
  const focusedCopy = group ? Math.min(copy, group.members.length - 1) : 0;
  useEffect(() => setCopy(0), [group?.key]);
  useEffect(() => {
    if (group) document.getElementById(`dup-row-${group.key}`)?.scrollIntoView({ block: 'nearest' });
  }, [group?.key]); // eslint-disable-line react-hooks/exhaustive-deps

  // In review, the preferred original is chosen before "same photograph" and sent with it.
  const [chosenPreferred, setChosenPreferred] = useState<Record<string, number>>({});
  const preferred = group ? (chosenPreferred[group.key] ?? group.preferredPhotoId) : null;

  const [flash, setFlash] = useState<Flash>();
  const [busy, setBusy] = useState(false);
  const undoStack = useRef<Undo[]>([]);

  const decide = async (call: () => Promise<string | null>, done: string, undo?: Undo) => {
    setBusy(true);
    const failed = await call();
    setBusy(false);
    if (failed) return setFlash({ kind: 'error', text: failed });
    if (undo) undoStack.current.push(undo);
    setFlash({ kind: 'ok', text: undo ? `${done} Ctrl+Z undoes it.` : done });
    reload();
  };

  const undo = async () => {
    const last = undoStack.current.pop();
    if (!last) return setFlash({ kind: 'ok', text: 'Nothing to undo.' });
    setBusy(true);
    const failed = await last.call();
    setBusy(false);
    setFlash(failed ? { kind: 'error', text: `Could not undo: ${failed}` } : { kind: 'ok', text: `Undone: ${last.text}` });
    reload();
  };

  const ids = (g: DuplicateGroup) => g.members.map((m) => m.photoId);
  const actions = (g: DuplicateGroup): GroupActions => ({
    same: () => {
      const photoIds = ids(g);
      const pref = chosenPreferred[g.key];
      const fresh = g.groupId == null && g.members.every((m) => m.groupId == null);
      void decide(
        async () => {
          const r = await client.call('duplicates.confirm', { photoIds, preferredPhotoId: pref });
          if (!r.ok) return r.error.message;
          if (fresh)
            undoStack.current.push({
              text: 'confirmed as one photograph',
              call: () => run('duplicates.unconfirm', { groupId: r.value.groupId }),
            });
          return null;
        },
        `Confirmed ${plural(photoIds.length, 'copy', 'copies')} as one photograph; accepted evidence now travels between them.${fresh ? '' : ' (Joined to a confirmed group: remove copies to take it back.)'}`,
      );
    },
    notSame: () => {
      const photoIds = ids(g);
      void decide(
        () => run('duplicates.notSame', { photoIds, from: photoIds }),
        'Marked not the same: these will not be proposed again.',
        { text: 'not the same', call: () => run('duplicates.proposeAgain', { photoIds, from: photoIds }) },
      );
    },
    unconfirm: () => {
      if (g.groupId == null) return;
      const photoIds = ids(g);
      const pref = g.preferredPhotoId ?? undefined;
      void decide(
        () => run('duplicates.unconfirm', { groupId: g.groupId! }),
        'Unconfirmed: the evidence it carried between the copies is withdrawn, and the pairs are back for review.',
        { text: 'unconfirmed', call: () => run('duplicates.confirm', { photoIds, preferredPhotoId: pref }) },
      );
    },
    proposeAgain: () => {
      const photoIds = ids(g);
      void decide(
        () => run('duplicates.proposeAgain', { photoIds, from: photoIds }),
        'Proposed again: the pair is back for review.',
        { text: 'proposed again', call: () => run('duplicates.notSame', { photoIds, from: photoIds }) },
      );
    },
    prefer: (photoId) => {
      if (g.state === 'confirmed' && g.groupId != null) {
        const before = g.preferredPhotoId;
        void decide(() => run('duplicates.setPreferred', { groupId: g.groupId!, photoId }), 'Preferred original set.', {
          text: 'preferred original',
          call: () => run('duplicates.setPreferred', { groupId: g.groupId!, photoId: before }),
        });
      } else if (g.state === 'unreviewed') {
        setChosenPreferred((c) => ({ ...c, [g.key]: photoId }));
        setFlash({ kind: 'ok', text: 'It becomes the preferred original when you confirm the group (A).' });
      }
    },
    notThis: (photoId) => {
      const rest = ids(g).filter((id) => id !== photoId);
      const name = g.members.find((m) => m.photoId === photoId)?.filename ?? `#${photoId}`;
      if (g.state === 'confirmed') {
        void decide(
          () => run('duplicates.removeFromGroup', { photoId }),
          `${name} is out of the group and will not be proposed with it again.`,
          {
            text: `${name} removed`,
            call: async () =>
              (await run('duplicates.proposeAgain', { photoIds: [photoId], from: rest })) ??
              run('duplicates.confirm', { photoIds: [...rest, photoId], preferredPhotoId: g.preferredPhotoId ?? undefined }),
          },
        );
      } else if (g.state === 'unreviewed') {
        void decide(
          () => run('duplicates.notSame', { photoIds: [photoId], from: rest }),
          `${name} is not the same as the others; it will not be proposed with them again.`,
          { text: `${name} not the same`, call: () => run('duplicates.proposeAgain', { photoIds: [photoId], from: rest }) },
        );
      }
    },
    open: (photoId) => navigate(`/photo/${photoId}`),
  });

  useWindowKeys((e, key) => {
    if ((e.ctrlKey || e.metaKey) && key === 'z' && !e.shiftKey) {
      e.preventDefault();
      if (!busy) void undo();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    const go = (to: number) => {
      const g = groups[Math.max(0, Math.min(groups.length - 1, to))];
      if (g) setFocusKey(g.key);
    };
    const a = group ? actions(group) : undefined;
    const member = group?.members[focusedCopy];
    const act = (fn: () => void) => !busy && a && fn();
    switch (key) {
      case 'ArrowDown':
      case 'j':
        go(index + 1);
        break;
      case 'ArrowUp':
      case 'k':
        go(index - 1);
        break;
      case 'ArrowRight':
        if (group) setCopy(Math.min(group.members.length - 1, focusedCopy + 1));
        break;
      case 'ArrowLeft':
        setCopy(Math.max(0, focusedCopy - 1));
        break;
      case 'a':
        // A group listed in part is not confirmed from its part (its button says why).
        if (group?.state !== 'unreviewed' || group.memberCount > group.members.length) return;
        act(() => a!.same());
        break;
      case 'r':
        if (group?.state !== 'unreviewed') return;
        act(() => a!.notSame());
        break;
      case 'u':
        if (group?.state === 'confirmed') act(() => a!.unconfirm());
        else if (group?.state === 'different') act(() => a!.proposeAgain());
        else return;
        break;
      case 'x':
        if (!member || group?.state === 'different') return;
        act(() => a!.notThis(member.photoId));
        break;
      case 'p':
        if (!member) return;
        act(() => a!.prefer(member.photoId));
        break;
      case 'Enter':
        if (!member || (e.target as HTMLElement | null)?.closest('button, a')) return;
        a?.open(member.photoId);
        break;
      default:
        return;
    }
    e.preventDefault();
  });

  const counts = list?.counts;
  const job = scan.job;
  const scanning = job && ['queued', 'running'].includes(job.status);

  return (
    <section className="screen dup-screen" aria-labelledby="dup-title">
      <header className="screen-head">
        <h1 id="dup-title" tabIndex={-1}>
          Duplicates
        </h1>
        <div className="toolbar dup-scan" data-testid="dup-scan">
          <span className="small muted" data-testid="dup-scan-state">
            {job === undefined
              ? ''
              : job === null
                ? 'The library has not been scanned for duplicates yet.'
                : scanning
                  ? `Scanning… ${job.progress != null ? `${Math.round(job.progress * 100)} %` : ''} ${job.progressMessage ?? ''}`
                  : `Last scan: ${job.status === 'success' ? (job.resultSummary ?? 'done') : (job.errorMessage ?? job.status)}`}
          </span>
          <button
            onClick={() => void scan.start()}
            disabled={!!scanning}
            title="Compare photos not yet compared (new imports are scanned by themselves)"
          >
            Scan for duplicates
          </button>
        </div>
      </header>

      <div className="dup-tabs" role="tablist" aria-label="Which groups">
        {duplicateViews.map((v) => (
          <button
            key={v}
            role="tab"
            aria-selected={view === v}
            className={`dup-tab${view === v ? ' on' : ''}`}
            onClick={() => {
              setView(v);
              setFocusKey(null);
              setFlash(undefined);
              lastIndex.current = 0;
            }}
            data-testid={`dup-tab-${v}`}
          >
            {VIEW_LABEL[v]} <span className="dup-tab-count">{counts ? counts[v].toLocaleString() : '…'}</span>
          </button>
        ))}
      </div>

      {flash && (
        <p className={`flash flash-${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'} data-testid="dup-flash">
          {flash.text}
        </p>
      )}
      {(error || scan.error) && (
        <p className="flash flash-error" role="alert">
          {error ?? scan.error}
        </p>
      )}

      {list && !groups.length ? (
        <div className="empty" data-testid="dup-empty">
          <p className="empty-title">
            {view === 'unreviewed'
              ? 'No duplicates to review.'
              : view === 'confirmed'
                ? 'No photographs confirmed yet.'
                : 'Nothing ruled out.'}
          </p>
          {view === 'unreviewed' && (
            <p>New imports are compared with the library by themselves. A scan finds photos not compared yet.</p>
          )}
        </div>
      ) : (
        <div className="dup-body">
          <DuplicateList
            groups={groups}
            focusedKey={group?.key ?? null}
            onFocus={setFocusKey}
            more={more}
            total={list?.total ?? 0}
          />
          <div className="dup-detail">
            {group && (
              <>
                <p className="kbd-hint small muted" aria-hidden="true">
                  {group.state === 'unreviewed' && (
                    <>
                      <kbd>A</kbd> same photograph · <kbd>R</kbd> not the same ·{' '}
                    </>
                  )}
                  {group.state !== 'unreviewed' && (
                    <>
                      <kbd>U</kbd> {group.state === 'confirmed' ? 'unconfirm' : 'propose again'} ·{' '}
                    </>
                  )}
                  {group.state !== 'different' && (
                    <>
                      <kbd>X</kbd> not this copy · <kbd>P</kbd> preferred ·{' '}
                    </>
                  )}
                  <kbd>←</kbd>
                  <kbd>→</kbd> copy · <kbd>↑</kbd>
                  <kbd>↓</kbd> group · <kbd>Enter</kbd> open · <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo
                </p>
                <DuplicateGroupView
                  group={group}
                  focused={focusedCopy}
                  preferred={preferred}
                  busy={busy}
                  onFocus={setCopy}
                  actions={actions(group)}
                />
              </>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
