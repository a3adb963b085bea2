/**
 * Re-run one kind of job for the selected photos (what the archivist can see of the selection),
 * sent in chunks so a selection of hundreds of thousands stays within the contract's limit.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api/client';
import { RERUN_JOB_TYPES, jobTypeInSentence, jobTypeLabel, type RerunJobTypeName } from '../../../../shared/jobs/types';
import { plural } from '../../format';

const RERUN_CHUNK = 50_000;

/** `selected`: the photos acted on. `selection`: the archivist's own selection; a change clears the message. */
export function BulkRerun({ selected, selection }: { selected: ReadonlySet<number>; selection: ReadonlySet<number> }) {
  const [rerunning, setRerunning] = useState(false);
  const [type, setType] = useState<RerunJobTypeName>('metadata');
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string }>();
  useEffect(() => setMsg(undefined), [selection]);

  const rerun = async () => {
    const ids = [...selected];
    setRerunning(true);
    let created = 0;
    let already = 0;
    let unreadable = 0;
    let error: string | undefined;
    for (let i = 0; i < ids.length && !error; i += RERUN_CHUNK) {
      const r = await client.call('photos.rerun', { ids: ids.slice(i, i + RERUN_CHUNK), type });
      if (r.ok) {
        created += r.value.created;
        already += r.value.alreadyActive;
        unreadable += r.value.unreadable;
      } else error = r.error.message;
    }
    setRerunning(false);
    setMsg(
      error
        ? { kind: 'error', text: error }
        : {
            kind: 'ok',
            text:
              `${created.toLocaleString()} started, ${already.toLocaleString()} already running` +
              (unreadable
                ? `; ${plural(unreadable, 'photo')} skipped: ${unreadable === 1 ? 'its file' : 'their files'} could not be read as an image (Re-run metadata to try again)`
                : ''),
          },
    );
  };

  return (
    <>
      {msg && (
        <span className={msg.kind === 'error' ? 'error-text' : 'ok-text'} role="status">
          {msg.text}
        </span>
      )}
      <select
        aria-label="What to re-run"
        value={type}
        onChange={(e) => setType(e.target.value as RerunJobTypeName)}
        className="small-select"
      >
        {RERUN_JOB_TYPES.map((t) => (
          <option key={t} value={t}>
            {jobTypeLabel(t)}
          </option>
        ))}
      </select>
      <button onClick={() => void rerun()} disabled={rerunning || !selected.size}>
        Re-run {jobTypeInSentence(type)}
      </button>
    </>
  );
}
