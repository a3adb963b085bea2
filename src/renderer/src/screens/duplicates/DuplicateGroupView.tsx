/**
 * One group of copies side by side: each copy's thumbnail, dimensions, file size, path, current
 * estimate and evidence, which copy is the preferred original, and how the copies matched; with
 * the decisions for the group and for one copy. The copy with the keyboard's attention is framed.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import type { DuplicateGroup, DuplicateMember } from '../../../../shared/duplicates/contract';
import { ESTIMATE_STATUS_LABEL } from '../library/labels';
import { evidenceLine, fileFacts, pairLabel } from './duplicateFormat';

export interface GroupActions {
  same(): void;
  notSame(): void;
  unconfirm(): void;
  proposeAgain(): void;
  prefer(photoId: number): void;
  notThis(photoId: number): void;
  open(photoId: number): void;
}

interface Props {
  group: DuplicateGroup;
  focused: number;
  preferred: number | null;
  busy: boolean;
  onFocus(index: number): void;
  actions: GroupActions;
}

export function DuplicateGroupView({ group, focused, preferred, busy, onFocus, actions }: Props) {
  const names = new Map(group.members.map((m) => [m.photoId, m.filename]));
  const state = group.state;
  /** More photos than one decision takes: only the closest matches are listed. */
  const partial = group.memberCount > group.members.length;
  return (
    <section className="dup-group" aria-label={`Group of ${group.memberCount} copies`} data-testid="dup-group" data-state={state}>
      <div className="dup-group-actions" role="group" aria-label="Decide about this group">
        {state === 'unreviewed' && (
          <>
            <button
              className="primary"
              onClick={actions.same}
              disabled={busy || partial}
              title={
                partial
                  ? `Not all ${group.memberCount} photos are listed: rule out the ones that are not the same first`
                  : 'These are one photograph (A)'
              }
            >
              Same photograph
            </button>
            <button onClick={actions.notSame} disabled={busy} title="Not one photograph; never proposed again (R)">
              Not the same
            </button>
          </>
        )}
        {state === 'confirmed' && (
          <button onClick={actions.unconfirm} disabled={busy} title="No longer one photograph; its evidence stops travelling (U)">
            Unconfirm
          </button>
        )}
        {state === 'different' && (
          <button onClick={actions.proposeAgain} disabled={busy} title="Take back “not the same” (U)">
            Propose again
          </button>
        )}
        <span className="dup-state small muted">
          {state === 'unreviewed' && group.groupId != null && 'Adds to photographs already confirmed as one'}
          {state === 'confirmed' && 'Confirmed as one photograph: accepted evidence travels between the copies'}
          {state === 'different' && 'Ruled out: never proposed again'}
        </span>
      </div>
      {partial && (
        <p className="dup-partial small" role="note" data-testid="dup-partial">
          Near matches join {group.memberCount.toLocaleString('en-US')} photos into this group, too many to be copies of one
          photograph. Listed: the {group.members.length} with the closest matches. Decide about these, and the next closest come
          forward.
        </p>
      )}
      <ul className="dup-cards" aria-label="Copies">
        {group.members.map((m, i) => (
          <CopyCard
            key={m.photoId}
            member={m}
            state={state}
            focused={i === focused}
            preferred={preferred === m.photoId}
            confirmedHere={state === 'unreviewed' && m.groupId != null && m.groupId === group.groupId}
            busy={busy}
            onFocus={() => onFocus(i)}
            actions={actions}
          />
        ))}
      </ul>
      {group.pairs.length > 0 && (
        <ul className="dup-pairs small muted" aria-label="How the copies matched">
          {group.pairs.map((p) => (
            <li key={`${p.a}-${p.b}`}>{pairLabel(p, names)}</li>
          ))}
          {group.pairCount > group.pairs.length && (
            <li>
              and {(group.pairCount - group.pairs.length).toLocaleString('en-US')} more matches
              {partial ? ', with photos not listed' : ''}
            </li>
          )}
        </ul>
      )}
    </section>
  );
}

function CopyCard(props: {
  member: DuplicateMember;
  state: DuplicateGroup['state'];
  focused: boolean;
  preferred: boolean;
  confirmedHere: boolean;
  busy: boolean;
  onFocus(): void;
  actions: GroupActions;
}) {
  const { member: m, state, focused, preferred, confirmedHere, busy, actions } = props;
  const cls = ['dup-card', focused ? 'focused' : '', preferred ? 'preferred' : ''].filter(Boolean).join(' ');
  return (
    <li
      className={cls}
      data-testid="dup-copy"
      data-photo-id={m.photoId}
      aria-current={focused ? 'true' : undefined}
      onMouseDown={props.onFocus}
      aria-label={`${m.filename}${preferred ? ', preferred original' : ''}`}
    >
      <button className="dup-thumb" onDoubleClick={() => actions.open(m.photoId)} title="Double-click to open (Enter)">
        <Thumb member={m} />
      </button>
      <div className="dup-card-body">
        <a className="dup-name" href={`#/photo/${m.photoId}`} title={`Open ${m.filename} (Enter)`}>
          {m.filename}
        </a>
        <div className="dup-badges">
          {preferred && <span className="pill dup-pill-preferred">★ Preferred original</span>}
          {confirmedHere && <span className="pill dup-pill-confirmed">Confirmed</span>}
          {m.missing && <span className="pill pill-failed">File missing</span>}
        </div>
        <div className="small" data-testid="dup-facts">
          {fileFacts(m)}
        </div>
        <div className="dup-path mono" title={m.path}>
          {m.path}
        </div>
        <div className="dup-estimate">
          <span className={`dup-est-dot dup-est-${m.estimateStatus}`} aria-hidden="true" />
          <span>{m.estimateLabel ?? ESTIMATE_STATUS_LABEL[m.estimateStatus]}</span>
        </div>
        <div className="small muted" data-testid="dup-evidence">
          Evidence: {evidenceLine(m)}
          {m.evidence.fromDuplicates > 0 && ` (${m.evidence.fromDuplicates} from copies)`}
        </div>
      </div>
      {state !== 'different' && (
        <div className="dup-card-actions">
          <button className="link-button small" onClick={() => actions.prefer(m.photoId)} disabled={busy || preferred}>
            {preferred ? 'Preferred original' : 'Make preferred (P)'}
          </button>
          <button
            className="link-button small"
            onClick={() => actions.notThis(m.photoId)}
            disabled={busy}
            title={
              state === 'confirmed' ? 'Not the same photograph: take it out of the group' : 'Not the same as the other copies'
            }
          >
            {state === 'confirmed' ? 'Remove (X)' : 'Not this one (X)'}
          </button>
        </div>
      )}
    </li>
  );
}

function Thumb({ member: m }: { member: DuplicateMember }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (m.thumbnailVersion && broken !== m.thumbnailVersion) {
    return (
      <img
        src={client.transport.mediaUrl('thumb', m.photoId, m.thumbnailVersion)}
        alt=""
        draggable={false}
        onError={() => setBroken(m.thumbnailVersion)}
      />
    );
  }
  return <span className="muted small">No preview</span>;
}
