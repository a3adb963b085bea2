/**
 * "Export…": the selection, the photos the library shows (its filter and search), or the whole
 * library, as CSV, JSON and/or XMP sidecars, into a folder. Runs as an `export` job: its progress
 * is shown here and it can be cancelled; it also appears on the Jobs page.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';
import { isActive, useWatchedJob } from '../../api/useWatchedJob';
import { Modal } from '../../components/Modal';
import { JobDialogFoot } from '../../components/WatchedJobStatus';
import { plural } from '../../format';
import type { PhotoQuery } from './usePhotoList';
import { plainExportError } from './exportWords';

type Scope = 'selection' | 'shown' | 'all';
type Format = 'csv' | 'json' | 'xmp';

const FORMATS: { id: Format; label: string; note: string }[] = [
  { id: 'csv', label: 'CSV', note: 'one row per photo, for Excel or LibreOffice' },
  { id: 'json', label: 'JSON', note: 'every photo with all its evidence (the documented circa-export format)' },
  { id: 'xmp', label: 'XMP sidecars', note: 'one .xmp per photo, read by digiKam, Lightroom and other photo tools' },
];

/** The last folder used, for the next export in this session. */
let lastDestination = '';

interface Props {
  selected: number[];
  query: PhotoQuery;
  shownTotal: number;
  /** False: `shownTotal` is a lower bound (a search or year range counted only so far). */
  shownExact: boolean;
  filtered: boolean;
  electron: boolean;
  onClose(): void;
}

export function ExportDialog({ selected, query, shownTotal, shownExact, filtered, electron, onClose }: Props) {
  const whole = useQuery('photos.list', { limit: 1 });
  const [scope, setScope] = useState<Scope>(selected.length ? 'selection' : filtered ? 'shown' : 'all');
  const [formats, setFormats] = useState<Format[]>(['csv', 'json']);
  const [destination, setDestination] = useState(lastDestination);
  const [nextToOriginals, setNextToOriginals] = useState(false);
  const [error, setError] = useState<string>();
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useWatchedJob(jobId);
  const running = isActive(job);

  const toggle = (f: Format) => setFormats(formats.includes(f) ? formats.filter((x) => x !== f) : [...formats, f]);
  const choose = async () => {
    const r = await client.call('export.chooseFolder', {});
    if (r.ok && r.value.path) setDestination(r.value.path);
    else if (!r.ok) setError(r.error.message);
  };
  const start = async () => {
    setError(undefined);
    lastDestination = destination.trim();
    const target =
      scope === 'selection'
        ? { kind: 'ids' as const, ids: selected }
        : scope === 'shown'
          ? {
              kind: 'filter' as const,
              filter: query.filter,
              search: query.search.trim() || undefined,
              yearFrom: query.yearFrom,
              yearTo: query.yearTo,
              yearMode: query.yearMode,
              includeClues: query.includeClues || undefined,
            }
          : { kind: 'all' as const };
    const r = await client.call('jobs.enqueue', {
      type: 'export',
      payload: {
        destination: destination.trim(),
        formats,
        scope: target,
        sidecarsNextToOriginals: formats.includes('xmp') && nextToOriginals,
      },
    });
    if (!r.ok) return setError(plainExportError(r.error.issues?.map((i) => i.message).join('; ') || r.error.message));
    if (!r.value.created) return setError(`An export into this folder is already running (job ${r.value.job.id})`);
    setJobId(r.value.job.id);
  };

  const scopes: { id: Scope; label: string; hidden?: boolean }[] = [
    { id: 'selection', label: `The selected photos (${selected.length.toLocaleString()})`, hidden: !selected.length },
    {
      id: 'shown',
      label: `The photos the library shows (${shownTotal.toLocaleString()}${shownExact ? '' : '+'})`,
      hidden: !filtered,
    },
    { id: 'all', label: `The whole library${whole.data ? ` (${plural(whole.data.total, 'photo')})` : ''}` },
  ];
  const canStart = !!destination.trim() && formats.length > 0 && !running;

  return (
    <Modal title="Export photos" onClose={onClose} testId="export-dialog">
      <form
        className="export-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (canStart) void start();
        }}
      >
        <fieldset disabled={running}>
          <legend>Which photos</legend>
          {scopes
            .filter((s) => !s.hidden)
            .map((s) => (
              <label key={s.id} className="check">
                <input type="radio" name="scope" checked={scope === s.id} onChange={() => setScope(s.id)} />
                <span>{s.label}</span>
              </label>
            ))}
        </fieldset>
        <fieldset disabled={running}>
          <legend>As</legend>
          {FORMATS.map((f) => (
            <label key={f.id} className="check">
              <input type="checkbox" checked={formats.includes(f.id)} onChange={() => toggle(f.id)} />
              <span>
                {f.label}
                <small>{f.note}</small>
              </span>
            </label>
          ))}
          {formats.includes('xmp') && (
            <label className="check indent">
              <input type="checkbox" checked={nextToOriginals} onChange={(e) => setNextToOriginals(e.target.checked)} />
              <span>
                Write the sidecars next to the original photos instead
                <small>
                  An existing sidecar there is updated and keeps what other tools wrote; the photos themselves are never changed.
                </small>
              </span>
            </label>
          )}
        </fieldset>
        <fieldset disabled={running}>
          <legend>Into the folder</legend>
          <div className="export-destination">
            <input
              aria-label="Export folder"
              value={destination}
              onChange={(e) => setDestination(e.target.value)}
              placeholder="/home/archive/exports"
              spellCheck={false}
            />
            {electron && (
              <button type="button" onClick={() => void choose()}>
                Choose…
              </button>
            )}
          </div>
        </fieldset>
        <JobDialogFoot
          error={error}
          job={job}
          what="Export"
          testId="export-status"
          cancelLabel="Cancel export"
          submitLabel="Export"
          canSubmit={canStart}
          onClose={onClose}
        />
      </form>
    </Modal>
  );
}
