/**
 * "Locate…": where did the missing photos go? The archivist gives a file or a folder (the system
 * dialog in the desktop app, a typed path in browser mode); main checks it and runs a `locate`
 * job, which relinks every missing photo whose content is found there — by SHA-256, never by
 * name — and says how many were relinked, how many are still missing and which files matched none.
 */
import { useState } from 'react';
import { client } from '../api/client';
import { isActive, useWatchedJob } from '../api/useWatchedJob';
import { Modal } from './Modal';
import { JobDialogFoot } from './WatchedJobStatus';

interface Props {
  /** What is looked for, in a sentence ("Canon_40D.jpg, last seen at …"). */
  lookingFor: string;
  /** The photos looked for: these, or those last seen in `folder` (for the report). */
  photoIds?: number[];
  folder?: string;
  electron: boolean;
  onClose(): void;
}

export function LocateDialog({ lookingFor, photoIds, folder, electron, onClose }: Props) {
  const [place, setPlace] = useState('');
  const [error, setError] = useState<string>();
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useWatchedJob(jobId);
  const running = isActive(job);

  const choose = async (kind: 'file' | 'folder') => {
    const r = await client.call('photos.chooseLocation', { kind });
    if (r.ok && r.value.path) setPlace(r.value.path);
    else if (!r.ok) setError(r.error.message);
  };
  const start = async () => {
    setError(undefined);
    const r = await client.call('photos.locate', { path: place.trim(), photoIds, folder });
    if (!r.ok) return setError(r.error.issues?.map((i) => i.message).join('; ') || r.error.message);
    setJobId(r.value.job.id);
  };

  return (
    <Modal title="Locate missing photos" onClose={onClose} testId="locate-dialog">
      <form
        className="export-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (place.trim() && !running) void start();
        }}
      >
        <p className="locate-looking-for">{lookingFor}</p>
        <p className="muted small">
          Give the file, or a folder to search with its subfolders. Photos are recognised by their content, not their names, so
          renamed files are found too; every missing photo found there is relinked, with everything known about it.
        </p>
        <fieldset disabled={running}>
          <legend>{electron ? 'Where they are now' : 'File or folder path on this computer'}</legend>
          <div className="export-destination">
            <input
              aria-label="File or folder path on this computer"
              value={place}
              onChange={(e) => setPlace(e.target.value)}
              placeholder="/home/archive/scans/box-12"
              spellCheck={false}
              autoComplete="off"
              autoFocus
            />
            {electron && (
              <>
                <button type="button" onClick={() => void choose('folder')}>
                  Choose a folder…
                </button>
                <button type="button" onClick={() => void choose('file')}>
                  Choose the file…
                </button>
              </>
            )}
          </div>
        </fieldset>
        <JobDialogFoot
          error={error}
          job={job}
          what="Search"
          testId="locate-status"
          cancelLabel="Stop searching"
          submitLabel="Locate"
          canSubmit={!!place.trim()}
          onClose={onClose}
        />
      </form>
    </Modal>
  );
}
