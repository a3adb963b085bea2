/**
 * The archivist's own constraints: not before / not after / between / circa ± n years, with a
 * note saying why. A bound may name a month or a day ("not before June 1923", "between 3 and 10
 * May 1945") and keeps that precision. Adds a new one, or edits the one chosen in the evidence
 * list. Main validates (years 1826–2100, real dates, from ≤ to, ± 0–50); its typed errors are shown
 * next to the field they are about.
 */
import { useEffect, useId, useState } from 'react';
import { client } from '../../api/client';
import type { EstimateView, EvidenceItem, ManualConstraint } from '../../../../shared/contract';
import { MONTH_NAMES, type PartialDate } from '../../../../shared/dating';
import type { CallError } from '../../../../shared/result';
import { yearOf } from './evidenceFormat';

type CType = ManualConstraint['type'];
type Part = 'year' | 'month' | 'day';
type Group = 'at' | 'from' | 'to';
/** A field of the form: a date part ("at.year", "from.month"), the ± years, or the note. */
type Field = `${Group}.${Part}` | 'plusMinus' | 'note';

const TYPE_LABEL: Record<CType, string> = {
  not_before: 'Not before',
  not_after: 'Not after',
  between: 'Between',
  circa: 'Circa (± years)',
};

type DateDraft = Record<Part, string>;

interface Draft {
  type: CType;
  at: DateDraft;
  from: DateDraft;
  to: DateDraft;
  plusMinus: string;
  note: string;
}

const NO_DATE: DateDraft = { year: '', month: '', day: '' };
const EMPTY: Draft = { type: 'not_before', at: NO_DATE, from: NO_DATE, to: NO_DATE, plusMinus: '5', note: '' };

const s = (n: number | undefined | null) => (n == null ? '' : String(n));
const dateDraft = (d: number | PartialDate | undefined): DateDraft =>
  d == null
    ? NO_DATE
    : typeof d === 'number'
      ? { ...NO_DATE, year: s(d) }
      : { year: s(d.year), month: s(d.month), day: s(d.day) };

/** The form's fields for an existing manual item (from the constraint main stored with it). */
function draftFor(item: EvidenceItem): Draft {
  const stored = item.source === 'manual' ? item.details : null;
  const note = stored?.note ?? '';
  const c = stored?.constraint;
  if (c?.type === 'between') return { ...EMPTY, type: 'between', from: dateDraft(c.from), to: dateDraft(c.to), note };
  if (c?.type === 'circa') return { ...EMPTY, type: 'circa', at: dateDraft(c.year), plusMinus: s(c.plusMinus), note };
  if (c) return { ...EMPTY, type: c.type, at: dateDraft(c), note };
  // No stored constraint: read it back from the interval.
  const a = item.earliest != null ? yearOf(item.earliest) : null;
  const b = item.latest != null ? yearOf(item.latest) : null;
  if (a != null && b != null) return { ...EMPTY, type: 'between', from: dateDraft(a), to: dateDraft(b), note };
  if (a != null) return { ...EMPTY, type: 'not_before', at: dateDraft(a), note };
  return { ...EMPTY, type: 'not_after', at: dateDraft(b ?? undefined), note };
}

/** A date as typed: a whole year, with a month (and a day) if given. */
function partialOf(d: DateDraft): PartialDate {
  const n = (t: string) => Number(t.trim());
  const out: PartialDate = { year: n(d.year) };
  if (d.month.trim()) out.month = n(d.month);
  if (d.day.trim()) out.day = n(d.day);
  return out;
}

/** Zod's words, in the form's terms (never zod's own text: "Too big: expected number to be <=2100"). */
function humanise(field: Field, message: string): string {
  const min = /expected \w+ to be >=?\s*(-?\d+)/.exec(message);
  const max = /expected \w+ to be <=?\s*(-?\d+)/.exec(message);
  if (field === 'plusMinus') {
    if (min) return `Must be at least ${min[1]} years`;
    if (max) return `Must be at most ${max[1]} years`;
  }
  if (field.endsWith('.day') && (min || max)) return 'A day is 1 to 31';
  if (min) return `Must be ${min[1]} or later`;
  if (max) return `Must be ${max[1]} or earlier`;
  if (/expected int/i.test(message)) return 'Must be a whole year';
  if (/expected number/i.test(message)) return 'Must be a number';
  return message;
}

function fieldOf(path: (string | number)[], type: CType): Field | null {
  if (path[0] === 'note') return 'note';
  if (path[0] !== 'constraint') return null;
  const rest = path.slice(1).map(String);
  if (rest[0] === 'plusMinus') return 'plusMinus';
  if (type === 'between') {
    const group: Group = rest[0] === 'from' ? 'from' : 'to';
    const part = (['year', 'month', 'day'] as Part[]).find((p) => p === rest[1]) ?? 'year';
    return `${group}.${part}`;
  }
  const part = (['year', 'month', 'day'] as Part[]).find((p) => p === rest[0]) ?? 'year';
  return `at.${part}`;
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

  // Another kind of constraint (or any other change) makes every message about the last one stale.
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors({});
    setFormError(undefined);
  };
  const setPart = (group: Group, part: Part, v: string) => {
    setDraft((d) => ({ ...d, [group]: { ...d[group], [part]: v } }));
    setErrors((e) => ({ ...e, [`${group}.${part}`]: undefined }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const groups: Group[] = draft.type === 'between' ? ['from', 'to'] : ['at'];
    const missing: Partial<Record<Field, string>> = {};
    for (const g of groups) if (!draft[g].year.trim()) missing[`${g}.year`] = 'Enter a year';
    if (draft.type === 'circa' && !draft.plusMinus.trim()) missing.plusMinus = 'Enter how many years either side';
    if (Object.keys(missing).length) return setErrors(missing);

    let constraint: ManualConstraint;
    if (draft.type === 'between') {
      const end = (d: DateDraft) => (d.month.trim() || d.day.trim() ? partialOf(d) : Number(d.year.trim()));
      constraint = { type: 'between', from: end(draft.from), to: end(draft.to) };
    } else if (draft.type === 'circa')
      constraint = { type: 'circa', year: Number(draft.at.year.trim()), plusMinus: Number(draft.plusMinus.trim()) };
    else constraint = { type: draft.type, ...partialOf(draft.at) };

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

  const fieldError = (field: Field) =>
    errors[field] && (
      <span className="field-error" id={`${uid}-err-${field}`} role="alert">
        {errors[field]}
      </span>
    );

  /** Year, and (not for circa) an optional month and day: "June 1923", "3 May 1945". */
  const dateInputs = (group: Group, prefix: string) => {
    const label = (part: string) => (prefix ? `${prefix} ${part.toLowerCase()}` : part);
    const idOf = (part: Part) => `${uid}-${group}-${part}`;
    const invalid = (part: Part) => !!errors[`${group}.${part}`];
    return (
      <div className="mc-date" role="group" aria-label={prefix || 'Date'}>
        <div className={`mc-field mc-year${invalid('year') ? ' has-error' : ''}`}>
          <label htmlFor={idOf('year')}>{label('Year')}</label>
          <input
            id={idOf('year')}
            type="number"
            inputMode="numeric"
            step={1}
            min={1826}
            max={2100}
            value={draft[group].year}
            onChange={(e) => setPart(group, 'year', e.target.value)}
            aria-invalid={invalid('year')}
            aria-describedby={invalid('year') ? `${uid}-err-${group}.year` : undefined}
            placeholder="e.g. 1937"
          />
          {fieldError(`${group}.year`)}
        </div>
        {draft.type !== 'circa' && (
          <>
            <div className={`mc-field mc-month${invalid('month') ? ' has-error' : ''}`}>
              <label htmlFor={idOf('month')}>{label('Month')}</label>
              <select id={idOf('month')} value={draft[group].month} onChange={(e) => setPart(group, 'month', e.target.value)}>
                <option value="">—</option>
                {MONTH_NAMES.map((m, i) => (
                  <option key={m} value={i + 1}>
                    {m}
                  </option>
                ))}
              </select>
              {fieldError(`${group}.month`)}
            </div>
            <div className={`mc-field mc-day${invalid('day') ? ' has-error' : ''}`}>
              <label htmlFor={idOf('day')}>{label('Day')}</label>
              <input
                id={idOf('day')}
                type="number"
                inputMode="numeric"
                min={1}
                max={31}
                value={draft[group].day}
                onChange={(e) => setPart(group, 'day', e.target.value)}
                aria-invalid={invalid('day')}
                placeholder="—"
              />
              {fieldError(`${group}.day`)}
            </div>
          </>
        )}
      </div>
    );
  };

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
          {draft.type !== 'between' && dateInputs('at', '')}
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
        {draft.type === 'between' && (
          <>
            {dateInputs('from', 'From')}
            {dateInputs('to', 'To')}
          </>
        )}
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
