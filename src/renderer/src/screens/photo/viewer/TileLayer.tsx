/**
 * The tiles of a zoom view that cover what is on screen: the level that has a pixel per device
 * pixel at this zoom, over the next coarser one (usually already loaded), so zooming and panning
 * show a sharp picture as soon as its tiles arrive and a softer one until then, never a hole.
 */
import { memo } from 'react';
import { client } from '../../../api/client';
import { levelFor, tilesInView, type PyramidInfo, type Size, type View } from './zoom';

interface Props {
  photoId: number;
  /** Which page of a multi-page file (from 1). */
  page: number;
  version: string;
  pyramid: PyramidInfo;
  view: View;
  viewport: Size;
}

export function TileLayer({ photoId, page, version, pyramid, view, viewport }: Props) {
  const level = levelFor(pyramid, view.scale, window.devicePixelRatio || 1);
  const levels = level > 0 ? [level - 1, level] : [level];
  return (
    <>
      {levels.map((l) =>
        tilesInView(pyramid, l, view, viewport).map((t) => (
          <Tile
            key={`${t.level}/${t.col}_${t.row}`}
            src={client.transport.mediaUrl('tile', photoId, version, { ...t, page })}
            left={t.left}
            top={t.top}
            width={t.width}
            height={t.height}
            level={t.level}
          />
        )),
      )}
    </>
  );
}

const Tile = memo(function Tile(p: { src: string; left: number; top: number; width: number; height: number; level: number }) {
  return (
    <img
      className="viewer-tile"
      src={p.src}
      alt=""
      draggable={false}
      decoding="async"
      data-level={p.level}
      style={{ left: p.left, top: p.top, width: p.width, height: p.height }}
    />
  );
});
