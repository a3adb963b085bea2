/**
 * "Import photos": a docked, non-modal panel, so the grid stays usable and visibly fills in
 * beside it. Electron chooses with the system dialog (or takes a drop); browser mode takes paths.
 */
import { useEffect, useState } from 'react';
import type { ImportProgress, ScanPolicy } from '../../../../shared/contract';
import { useQuery } from '../../api/hooks';
import { formatCount, formatDuration } from '../../format';
import { SCAN_POLICIES, SCAN_POLICY_HINT, SCAN_POLICY_LABEL } from '../scanLabels';
import type { ImportState } from './useImport';

interface Props {
  state: ImportState;
  electron: boolean;
  onClose(): void;
  note?: string;
}

export function ImportPanel({ state, electron, onClose, note }: Props) {
  const [text, setText] = useState('');
  const paths = text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const blocked = state.running || state.busy;
  // What these files are: asked per import, starting from the library's default (Settings).
  const settings = useQuery('settings.get', {});
  const [scanPolicy, setScanPolicy] = useState<ScanPolicy>();
  useEffect(() => {
    if (settings.data) setScanPolicy((p) => p ?? settings.data!.defaultScanPolicy);
  }, [settings.data]);
  const submit = () => {
    if (paths.length && !blocked) void state.start(paths, scanPolicy);
  };

  return (
    <aside className="import-panel" aria-labelledby="import-title" data-testid="import-panel">
      <div className="panel-head">
        <h2 id="import-title">Import photos</h2>
        <button className="icon-button" onClick={onClose} aria-label="Close the import panel" title="Close">
          ×
        </button>
      </div>
      <p className="panel-intro">
        Photos stay where they are: Circa references them in place and never changes the files. Folders are searched with their
        subfolders; JPEG, PNG, TIFF, WebP, GIF and AVIF files are imported, anything else is skipped and listed with the reason.
      </p>
      {note && <p className="flash flash-warn">{note}</p>}

      <fieldset className="import-scan-policy" data-testid="import-scan-policy">
        <legend className="field-label">These files are</legend>
        {SCAN_POLICIES.map((p) => (
          <label key={p} className="check small">
            <input type="radio" name="scan-policy" value={p} checked={scanPolicy === p} onChange={() => setScanPolicy(p)} />
            <span>{SCAN_POLICY_LABEL[p]}</span>
          </label>
        ))}
        {scanPolicy && <small className="muted">{SCAN_POLICY_HINT[scanPolicy]} Each photo can be changed later.</small>}
      </fieldset>

      {electron ? (
        <div className="import-start">
          <button className="primary" onClick={() => void state.choose(scanPolicy)} disabled={blocked}>
            Choose files or folders…
          </button>
          <p className="muted small">Or drop files and folders onto the library.</p>
        </div>
      ) : (
        <form
          className="import-start"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor="import-paths" className="field-label">
            Folder or file path on this computer
          </label>
          <textarea
            id="import-paths"
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                submit();
              }
            }}
            placeholder="/home/archive/scans/box-12"
            spellCheck={false}
            autoComplete="off"
            aria-describedby="import-paths-help"
          />
          <div className="import-form-foot">
            <small id="import-paths-help" className="muted">
              One full path per line (from /, or ~/ for your home folder); a file:// link works too.
            </small>
            <button type="submit" className="primary" disabled={!paths.length || blocked}>
              Import
            </button>
          </div>
        </form>
      )}
      {state.running && <p className="muted small">An import is running; a new one can start when it has finished.</p>}
      {state.error && (
        <p className="flash flash-error" role="alert">
          {state.error}
        </p>
      )}
      {state.question && (
        <div className="flash flash-warn import-question" role="alertdialog" aria-labelledby="import-question-text">
          <p id="import-question-text">{state.question.message}</p>
          <div className="import-question-actions">
            <button onClick={() => void state.answer(false)} autoFocus>
              Cancel
            </button>
            <button className="danger" onClick={() => void state.answer(true)}>
              Import anyway
            </button>
          </div>
        </div>
      )}
      {state.progress && <ImportProgressView p={state.progress} onCancel={() => void state.cancel()} />}
    </aside>
  );
}

const STATS = [
  ['found', 'Found'],
  ['hashed', 'Hashed'],
  ['added', 'Added'],
  ['duplicates', 'Duplicates'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
] as const;

const TITLE: Record<ImportProgress['status'], string> = {
  running: 'Importing…',
  done: 'Import finished',
  cancelled: 'Import cancelled',
  failed: 'Import stopped',
};

function ImportProgressView({ p, onCancel }: { p: ImportProgress; onCancel(): void }) {
  const running = p.status === 'running';
  // `found` counts image files (others are `skipped`); each ends hashed or failed.
  const settled = Math.min(p.found, p.hashed + p.failed);
  const fraction = p.found ? settled / p.found : undefined;
  // A cancelled or stopped import shows how far it got, not a full bar.
  const bar = p.status === 'done' ? 1 : running ? fraction : (fraction ?? 0);
  // Failed: files that could not be imported, so not in the library. A photo added that turned out
  // unreadable is in the library (listed, marked unreadable, can be re-read): it is counted as added.
  const count = (key: (typeof STATS)[number][0]) => p[key];
  const elapsed = (p.finishedAt ?? Date.now()) - p.startedAt;
  return (
    <section
      className="import-progress"
      aria-labelledby="import-progress-title"
      data-testid="import-progress"
      data-status={p.status}
    >
      <div className="import-progress-head">
        <h3 id="import-progress-title" className={`import-state import-state-${p.status}`}>
          {TITLE[p.status]}
        </h3>
        {running && <button onClick={onCancel}>Cancel</button>}
      </div>
      <p className="import-roots mono" title={p.roots.join('\n')}>
        {p.roots.join(', ')}
      </p>
      <progress
        className="import-bar"
        max={1}
        value={bar}
        aria-label="Import progress"
        aria-valuetext={running || p.status !== 'done' ? `${settled} of ${p.found} files read` : TITLE[p.status]}
      />
      <dl className="import-stats" aria-live="off">
        {STATS.map(([key, label]) => (
          <div key={key} className={`import-stat import-stat-${key}${count(key) && key === 'failed' ? ' bad' : ''}`}>
            <dt>{label}</dt>
            <dd data-testid={`import-${key}`}>{formatCount(count(key))}</dd>
          </div>
        ))}
      </dl>
      <p className="import-summary" role="status">
        {running ? `${formatCount(settled)} of ${formatCount(p.found)} files read so far` : (p.message ?? TITLE[p.status])}
        {!running && <span className="muted"> · {formatDuration(elapsed)}</span>}
      </p>
      <PathList
        title="Could not import"
        items={p.errors.map((e) => ({ path: e.path, why: e.message }))}
        total={count('failed')}
        testId="import-error-list"
        tone="error-text"
      />
      <PathList
        title="Added, but unreadable"
        note="In the library, marked unreadable: fix or replace the file, then re-run metadata."
        items={p.unreadableFiles.map((e) => ({ path: e.path, why: e.message }))}
        total={p.unreadable}
        testId="import-unreadable-list"
        tone="error-text"
      />
      <PathList
        title="Copies not added"
        note="The same content is already in the library; the copy kept is named."
        items={p.duplicateFiles.map((d) => ({ path: d.path, why: `same as ${d.keptPath}` }))}
        total={p.duplicateFiles.length}
        testId="import-duplicate-list"
        tone="muted"
      />
      <PathList
        title="Skipped"
        items={p.skippedFiles.map((s) => ({ path: s.path, why: s.reason }))}
        total={p.skipped}
        testId="import-skipped-list"
        tone="muted"
      />
    </section>
  );
}

const SHOWN = 20;

/** Files named with why (could not be read, or left out); the first few, then a count. */
function PathList(props: {
  title: string;
  note?: string;
  items: { path: string; why: string }[];
  total: number;
  testId: string;
  tone: string;
}) {
  const { title, note, items, total, testId, tone } = props;
  if (!items.length) return null;
  const shown = Math.min(SHOWN, items.length);
  return (
    <div className={`import-errors ${testId}`} data-testid={testId}>
      <h3>{title}</h3>
      {note && <p className="muted small">{note}</p>}
      <ul>
        {items.slice(0, SHOWN).map((e, i) => (
          <li key={`${i}-${e.path}`}>
            <span className="mono import-error-path" title={e.path}>
              {e.path}
            </span>
            <span className={tone}>{e.why}</span>
          </li>
        ))}
      </ul>
      {total > shown && <p className="muted small">and {(total - shown).toLocaleString()} more</p>}
    </div>
  );
}
