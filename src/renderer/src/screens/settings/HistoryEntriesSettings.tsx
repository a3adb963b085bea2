/**
 * Settings → History in captions: the archivist's own named events and periods, read in captions
 * beside Circa's sourced catalogue. Each entry needs a name, its dates, whether naming it dates the
 * picture or only bounds it, and a source someone can check. Kept in the library (so in every
 * backup), and downloadable as a JSON file in the catalogue's own format.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';
import { StatusFlash, type FlashMessage } from '../../components/StatusFlash';
import { historyEntrySchema, type HistoryEntry } from '../../../../shared/dating/history/history-entry';

interface Draft {
  names: string;
  from: string;
  to: string;
  evidence: HistoryEntry['evidence'];
  work: string;
  title: string;
}
const EMPTY: Draft = { names: '', from: '', to: '', evidence: 'dates', work: '', title: '' };

/** "Ashby Village Fete" → "ashby-village-fete", made unique among the list. */
function newId(name: string, taken: readonly HistoryEntry[]): string {
  const base =
    name
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'entry';
  let id = base;
  for (let n = 2; taken.some((e) => e.id === id); n++) id = `${base}-${n}`;
  return id;
}

const FIELD_WORDS: Record<string, string> = {
  names: 'Name',
  from: 'From',
  to: 'To',
  source: 'Source',
  work: 'Source',
  title: 'Article or record',
};

function entryFrom(d: Draft, taken: readonly HistoryEntry[]) {
  const names = d.names
    .split(/[;,]/)
    .map((n) => n.trim())
    .filter(Boolean);
  const from = d.from.trim() || null;
  const to = d.to.trim() || from;
  return historyEntrySchema.safeParse({
    id: newId(names[0] ?? '', taken),
    kind: from && to && from === to ? 'event' : 'period',
    names: { en: names },
    from,
    to,
    evidence: d.evidence,
    source: { work: d.work.trim(), title: d.title.trim() },
  });
}

function span(e: HistoryEntry): string {
  if (e.from && e.to) return e.from === e.to ? e.from : `${e.from} – ${e.to}`;
  return e.from ? `from ${e.from}` : `until ${e.to}`;
}

export function HistoryEntriesSettings() {
  const q = useQuery('historyEntries.list', {});
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [status, setStatus] = useState<FlashMessage>();
  if (q.error) return <p className="flash flash-error">{q.error.message}</p>;
  const view = q.data;
  const entries = view?.entries ?? [];
  const set = (k: keyof Draft, v: string) => {
    setDraft({ ...draft, [k]: v });
    setStatus(undefined);
  };

  const save = async (next: HistoryEntry[], done: string) => {
    const r = await client.call('historyEntries.save', { entries: next });
    if (r.ok) {
      setStatus({ kind: 'ok', text: done });
      q.reload();
      return true;
    }
    setStatus({ kind: 'error', text: r.error.issues?.map((i) => i.message).join('; ') || r.error.message });
    return false;
  };

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = entryFrom(draft, entries);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => {
        const field = i.path.find((p) => typeof p === 'string' && FIELD_WORDS[p]) as string | undefined;
        return field ? `${FIELD_WORDS[field]}: ${i.message}` : i.message;
      });
      return setStatus({ kind: 'error', text: `Not added: ${[...new Set(problems)].join('; ')}` });
    }
    if (
      await save(
        [...entries, parsed.data],
        `Added “${parsed.data.names.en![0]}”. Captions read from now on use it; rerun OCR for earlier ones.`,
      )
    )
      setDraft(EMPTY);
  };

  const download = () => {
    const file = JSON.stringify({ family: 'own', version: 1, entries }, null, 2);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([file], { type: 'application/json' }));
    a.download = 'circa-history-entries.json';
    a.click();
    URL.revokeObjectURL(a.href);
  };

  return (
    <form className="settings-form history-entries" onSubmit={add} aria-labelledby="history-entries-title">
      <fieldset>
        <legend id="history-entries-title">History in captions</legend>
        <p className="field-note">
          Captions naming an event or period (“V-E Day”, “Coronation of George VI”, “between the wars”) become evidence with their
          source. Circa’s catalogue holds {view?.catalogue.entries ?? '…'} entries; add the events of your own collection below.
        </p>
        {entries.length > 0 ? (
          <table className="history-entries-table" data-testid="own-history-entries">
            <thead>
              <tr>
                <th>Name</th>
                <th>Dates</th>
                <th>Naming it</th>
                <th>Source</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{e.names.en?.join(', ')}</td>
                  <td className="mono">{span(e)}</td>
                  <td>{e.evidence === 'dates' ? 'dates the picture' : 'only bounds it'}</td>
                  <td>
                    {e.source.work}, “{e.source.title}”
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() =>
                        void save(
                          entries.filter((x) => x.id !== e.id),
                          `Removed “${e.names.en?.[0] ?? e.id}”.`,
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="field-note">No entries of your own yet.</p>
        )}
        {view && view.unreadable > 0 && (
          <p className="flash flash-error">
            {view.unreadable} stored {view.unreadable === 1 ? 'entry is' : 'entries are'} not readable by this version of Circa;
            kept in the library, not used.
          </p>
        )}
        <label className="field">
          <span>Name (and other names, comma-separated)</span>
          <input value={draft.names} onChange={(e) => set('names', e.target.value)} placeholder="e.g. Ashby Village Fete" />
        </label>
        <label className="field">
          <span>From</span>
          <input value={draft.from} onChange={(e) => set('from', e.target.value)} placeholder="YYYY, YYYY-MM or YYYY-MM-DD" />
        </label>
        <label className="field">
          <span>To (empty: the same day)</span>
          <input value={draft.to} onChange={(e) => set('to', e.target.value)} placeholder="YYYY, YYYY-MM or YYYY-MM-DD" />
        </label>
        <label className="field">
          <span>Naming it</span>
          <select value={draft.evidence} onChange={(e) => set('evidence', e.target.value)}>
            <option value="dates">dates the picture (a photo of it)</option>
            <option value="bounds">only bounds the picture (within these dates)</option>
          </select>
        </label>
        <label className="field">
          <span>Source</span>
          <input value={draft.work} onChange={(e) => set('work', e.target.value)} placeholder="e.g. Ashby parish magazine" />
        </label>
        <label className="field">
          <span>Article or record</span>
          <input value={draft.title} onChange={(e) => set('title', e.target.value)} placeholder="e.g. August 1923, p. 4" />
        </label>
        <div className="form-actions">
          <button type="submit">Add entry</button>
          <button type="button" onClick={download} disabled={!entries.length}>
            Download my entries (JSON)
          </button>
          <StatusFlash message={status} />
        </div>
      </fieldset>
    </form>
  );
}
