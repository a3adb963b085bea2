/** The groups of one view, as a list to step through: a strip of small thumbnails and a line each. */
import { memo } from 'react';
import { client } from '../../api/client';
import type { DuplicateGroup } from '../../../../shared/duplicates/contract';
import { plural } from '../../format';

interface Props {
  groups: DuplicateGroup[];
  focusedKey: string | null;
  onFocus(key: string): void;
  more?: () => void;
  total: number;
}

export function DuplicateList({ groups, focusedKey, onFocus, more, total }: Props) {
  return (
    <div className="dup-list-pane">
      <ul className="dup-list" role="listbox" aria-label="Groups">
        {groups.map((g) => (
          <GroupRow key={g.key} group={g} focused={g.key === focusedKey} onFocus={onFocus} />
        ))}
      </ul>
      {more && (
        <button className="link-button small dup-more" onClick={more}>
          Show more ({(total - groups.length).toLocaleString()} not shown)
        </button>
      )}
    </div>
  );
}

const GroupRow = memo(function GroupRow({
  group: g,
  focused,
  onFocus,
}: {
  group: DuplicateGroup;
  focused: boolean;
  onFocus(key: string): void;
}) {
  const closest = Math.min(...g.pairs.map((p) => p.distance ?? 64));
  const names = g.members.map((m) => m.filename).join(', ') + (g.memberCount > g.members.length ? ', …' : '');
  return (
    <li
      id={`dup-row-${g.key}`}
      role="option"
      aria-selected={focused}
      className={`dup-row${focused ? ' focused' : ''}`}
      onClick={() => onFocus(g.key)}
      data-testid="dup-row"
      title={names}
    >
      <span className="dup-row-thumbs" aria-hidden="true">
        {g.members
          .slice(0, 4)
          .map((m) =>
            m.thumbnailVersion ? (
              <img
                key={m.photoId}
                src={client.transport.mediaUrl('thumb', m.photoId, m.thumbnailVersion)}
                alt=""
                loading="lazy"
              />
            ) : (
              <span key={m.photoId} className="dup-row-blank" />
            ),
          )}
      </span>
      <span className="dup-row-text">
        <span className="dup-row-title">
          {g.state === 'different' && g.memberCount > 2
            ? `Not the same: ${plural(g.memberCount, 'copy', 'copies')}`
            : g.state === 'different'
              ? 'Not the same'
              : plural(g.memberCount, 'copy', 'copies')}
        </span>
        <span className="small muted dup-row-names">{names}</span>
        {g.state !== 'different' && closest < 64 && (
          <span className="small muted">{closest === 0 ? 'identical hashes' : `closest ${plural(closest, 'bit')} apart`}</span>
        )}
      </span>
    </li>
  );
});
