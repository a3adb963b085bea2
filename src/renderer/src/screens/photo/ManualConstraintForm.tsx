/**
 * The archivist's own constraints: not before / not after / between / circa ± n years, with a
 * note saying why. Adds a new one, or edits the one chosen in the evidence list. Main validates
 * (years 1826–2100, from ≤ to, ± 0–50); its typed errors are shown next to the field they are about.
 */
import { useEffect, useId, useState } from 'react';
import { client } from '../../api/client';
import type { EstimateView, EvidenceItem, ManualConstraint } from '../../../../shared/contract';
import type { CallError } from '../../../../shared/result';
import { yearOf } from './evidenceFormat';

type CType = ManualConstraint['type'];
type Field = 'year' | 'from' | 'to' | 'plusMinus' | 'note';

const TYPE_LABEL: Record<CType, string> = {
  not_before: 'Not before',
  not_after: 'Not after',
  between: 'Between',
  circa: 'Circa (± years)',
};

interface Draft {
  type: CType;
  year: string;
  from: string;
  to: string;
  plusMinus: string;
  note: string;
}

const EMPTY: Draft = { type: 'not_before', year: '', from: '', to: '', plusMinus: '5', note: '' };

/** The form's fields for an existing manual item (from the constraint main stored with it). */
function draftFor(item: EvidenceItem): Draft {
  const c = item.details?.constraint as
    { type?: CType; year?: number; from?: number; to?: number; plusMinus?: number } | undefined;
  const note = typeof item.details?.note === 'string' ? item.details.note : '';
  const s = (n: number | undefined | null) => (n == null ? '' : String(n));
  if (c?.type)
    return { ...EMPTY, type: c.type, year: s(c.year), from: s(c.from), to: s(c.to), plusMinus: s(c.plusMinus ?? 5), note };
  // No stored constraint: read it back from the interval.
  const a = item.earliest != null ? yearOf(item.earliest) : null;
  const b = item.latest != null ? yearOf(item.latest) : null;
  if (a != null && b != null) return { ...EMPTY, type: 'between', from: s(a), to: s(b), note };
  if (a != null) return { ...EMPTY, type: 'not_before', year: s(a), note };
  return { ...EMPTY, type: 'not_after', year: s(b), note };
}

/** Zod's words, in the form's terms. */
function humanise(field: Field, message: string): string {
  const min = /expected \w+ to be >=?\s*(-?\d+)/.exec(message);
  const max = /expected \w+ to be <=?\s*(-?\d+)/.exec(message);
  if (field === 'plusMinus') {
    if (min) return `Must be at least ${min[1]} years`;
    if (max) return `Must be at most ${max[1]} years`;
  }
  if (min) return `Must be ${min[1]} or later (${message})`;
  if (max) return `Must be ${max[1]} or earlier (${message})`;
  if (/expected int/i.test(message)) return 'Must be a whole year';
  return message;
}

function fieldOf(path: (string | number)[], type: CType): Field | null {
  const last = path[path.length - 1];
  if (path[0] === 'note') return 'note';
  if (last === 'year' || last === 'from' || last === 'to' || last === 'plusMinus') return last;
  if (path[0] === 'constraint') return type === 'between' ? 'to' : 'year';
  return null;
}

interface Props {
  photoId: number;
  editing: EvidenceItem | null;
  onCancelEdit(): void;
  onSaved(change: { item: EvidenceItem; estimate: EstimateView }, what: string): void;
}

export function ManualConstraintForm({ photoId, editing, onCancelEdit, onSaved }: Props) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const editingId = editing?.id ?? null;
  const uid = useId();

  useEffect(() => {
    setDraft(editing ? draftFor(editing) : EMPTY);
    setErrors({});
    setFormError(undefined);
    // Only when another item is chosen (not when the same one is re-read).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editingId, photoId]);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const need: Field[] = draft.type === 'between' ? ['from', 'to'] : draft.type === 'circa' ? ['year', 'plusMinus'] : ['year'];
    const missing: Partial<Record<Field, string>> = {};
    for (const f of need)
      if (!String(draft[f]).trim()) missing[f] = f === 'plusMinus' ? 'Enter how many years either side' : 'Enter a year';
    if (Object.keys(missing).length) return setErrors(missing);

    const n = (s: string) => Number(s.trim());
    let constraint: ManualConstraint;
    if (draft.type === 'between') constraint = { type: 'between', from: n(draft.from), to: n(draft.to) };
    else if (draft.type === 'circa') constraint = { type: 'circa', year: n(draft.year), plusMinus: n(draft.plusMinus) };
    else constraint = { type: draft.type, year: n(draft.year) };

    setBusy(true);
    setFormError(undefined);
    const r = editing
      ? await client.call('evidence.updateManual', { id: editing.id, constraint, note: draft.note })
      : await client.call('evidence.addManual', { photoId, constraint, note: draft.note });
    setBusy(false);
    if (!r.ok) return showError(r.error);
    setErrors({});
    onSaved(r.value, editing ? `Constraint #${editing.id} changed.` : `Added: ${r.value.item.summary}.`);
    if (!editing) setDraft((d) => ({ ...EMPTY, type: d.type }));
  };

  const showError = (err: CallError) => {
    const byField: Partial<Record<Field, string>> = {};
    const rest: string[] = [];
    for (const issue of err.issues ?? []) {
      const f = fieldOf(issue.path, draft.type);
      if (f && !byField[f]) byField[f] = humanise(f, issue.message);
      else if (!f) rest.push(issue.message);
    }
    setErrors(byField);
    if (rest.length || !Object.keys(byField).length) setFormError(rest.join('; ') || err.message);
  };

  const yearInput = (field: 'year' | 'from' | 'to', label: string) => (
    <div className={`mc-field${errors[field] ? ' has-error' : ''}`}>
      <label htmlFor={`${uid}-${field}`}>{label}</label>
      <input
        id={`${uid}-${field}`}
        type="number"
        inputMode="numeric"
        step={1}
        min={1826}
        max={2100}
        value={draft[field]}
        onChange={(e) => set(field, e.target.value)}
        aria-invalid={!!errors[field]}
        aria-describedby={errors[field] ? `${uid}-err-${field}` : undefined}
        placeholder="e.g. 1937"
      />
      {errors[field] && (
        <span className="field-error" id={`${uid}-err-${field}`} role="alert">
          {errors[field]}
        </span>
      )}
    </div>
  );

  return (
    <section className="side-section" aria-labelledby="mc-title">
      <h3 id="mc-title">{editing ? `Edit constraint #${editing.id}` : 'Add your own constraint'}</h3>
      <form className={`mc-form${editing ? ' mc-editing' : ''}`} onSubmit={submit} noValidate data-testid="manual-form">
        <div className="mc-row">
          <div className="mc-field">
            <label htmlFor={`${uid}-type`}>Constraint</label>
            <select id={`${uid}-type`} value={draft.type} onChange={(e) => set('type', e.target.value as CType)}>
              {(Object.keys(TYPE_LABEL) as CType[]).map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </div>
          {draft.type === 'between' ? (
            <>
              {yearInput('from', 'From year')}
              {yearInput('to', 'To year')}
            </>
          ) : (
            yearInput('year', 'Year')
          )}
          {draft.type === 'circa' && (
            <div className={`mc-field mc-narrow${errors.plusMinus ? ' has-error' : ''}`}>
              <label htmlFor={`${uid}-pm`}>± years</label>
              <input
                id={`${uid}-pm`}
                type="number"
                inputMode="numeric"
                min={0}
                max={50}
                value={draft.plusMinus}
                onChange={(e) => set('plusMinus', e.target.value)}
                aria-invalid={!!errors.plusMinus}
              />
              {errors.plusMinus && (
                <span className="field-error" role="alert">
                  {errors.plusMinus}
                </span>
              )}
            </div>
          )}
        </div>
        <div className={`mc-field mc-note${errors.note ? ' has-error' : ''}`}>
          <label htmlFor={`${uid}-note`}>Note</label>
          <input
            id={`${uid}-note`}
            type="text"
            value={draft.note}
            maxLength={2000}
            onChange={(e) => set('note', e.target.value)}
            placeholder="Why? e.g. the car is a 1937 Ford"
          />
          {errors.note && (
            <span className="field-error" role="alert">
              {errors.note}
            </span>
          )}
        </div>
        {formError && (
          <p className="field-error" role="alert">
            {formError}
          </p>
        )}
        <div className="mc-actions">
          <button type="submit" className="primary small-button" disabled={busy}>
            {editing ? 'Save changes' : 'Add constraint'}
          </button>
          {editing && (
            <button type="button" className="small-button" onClick={onCancelEdit}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
