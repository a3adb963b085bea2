/**
 * Finding missing photos from the library: with the "Missing files" filter, the folders their
 * files were last seen in, each with "Locate…"; and "Locate…" for the missing photos of a
 * selection. Both open the Locate dialog (../../components/LocateDialog.tsx).
 */
import { useState } from 'react';
import type { PhotoSummary } from '../../../../shared/contract';
import { useQuery } from '../../api/hooks';
import { LocateDialog } from '../../components/LocateDialog';
import { plural } from '../../format';

type Locating = { lookingFor: string; photoIds?: number[]; folder?: string };

/** The folders missing photos were in: shown above the grid when it shows missing files. */
export function MissingFolders({ electron }: { electron: boolean }) {
  const q = useQuery('photos.missingFolders', {}, [], { invalidateOn: ['photos.changed'] });
  const [locating, setLocating] = useState<Locating>();
  const data = q.data;
  const unlisted = data ? data.folders - data.items.length : 0;
  // The dialog stays open (in the same place in the tree) after its search found every missing photo.
  return (
    <>
      {!!data?.photos && (
        <div className="missing-folders" data-testid="missing-folders">
          <p className="missing-folders-intro">
            {plural(data.photos, 'photo')} {data.photos === 1 ? 'is' : 'are'} missing from {plural(data.folders, 'folder')}. If
            they were moved, show Circa where they are now: they are recognised by content, so renamed files are found too.
          </p>
          <ul>
            {data.items.map((f) => (
              <li key={f.folder}>
                <span className="missing-folder-path" title={f.folder}>
                  {f.folder}
                </span>
                <span className="muted small">{plural(f.count, 'photo')}</span>
                <button
                  onClick={() =>
                    setLocating({ lookingFor: `${plural(f.count, 'photo')} last seen in ${f.folder}.`, folder: f.folder })
                  }
                >
                  Locate…
                </button>
              </li>
            ))}
          </ul>
          {unlisted > 0 && <p className="muted small">And {plural(unlisted, 'more folder')} with fewer missing photos.</p>}
        </div>
      )}
      {locating && <LocateDialog {...locating} electron={electron} onClose={() => setLocating(undefined)} />}
    </>
  );
}

/** "Locate…" in the selection bar, when the selection holds missing photos. */
export function LocateSelected({
  selected,
  rowOf,
  electron,
}: {
  selected: ReadonlySet<number>;
  rowOf(id: number): PhotoSummary | undefined;
  electron: boolean;
}) {
  // What is looked for is fixed when the dialog opens: photos found meanwhile stop being missing.
  const [locating, setLocating] = useState<Locating>();
  const missing = [...selected].filter((id) => rowOf(id)?.missing);
  const open = () => {
    const first = rowOf(missing[0]);
    const lookingFor =
      missing.length === 1 && first
        ? `${first.filename}, last seen at ${first.path}.`
        : `${plural(missing.length, 'selected photo')} whose files are missing.`;
    setLocating({ lookingFor, photoIds: missing });
  };
  return (
    <>
      {missing.length > 0 && (
        <button onClick={open} title="Show Circa where the missing files of the selection are now">
          Locate {missing.length > 1 ? `${missing.length.toLocaleString()} missing` : 'missing'}…
        </button>
      )}
      {locating && <LocateDialog {...locating} electron={electron} onClose={() => setLocating(undefined)} />}
    </>
  );
}
