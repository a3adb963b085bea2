/**
 * Zoom and pan for the viewer: the mouse wheel and a trackpad pinch zoom about the pointer, a drag
 * pans, a double click toggles fit and actual size there. Until the archivist zooms, the photo
 * stays fitted as the window changes size; after, the view is kept (and kept in bounds).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { clampView, fitScale, fitView, panBy, zoomTo, type Size, type View } from './zoom';

export interface ZoomPan {
  view: View | null;
  viewport: Size;
  /** The photo is fitted (and stays fitted when the window changes). */
  fitted: boolean;
  fit(): void;
  /** Actual size (1 image px per screen px) about `at`, or the centre. */
  actualSize(at?: { x: number; y: number }): void;
  /** Multiplies the scale about `at`, or the centre. */
  zoomBy(factor: number, at?: { x: number; y: number }): void;
  pan(dx: number, dy: number): void;
  /** True while a drag is panning (for the cursor). */
  dragging: boolean;
  handlers: {
    onPointerDown(e: React.PointerEvent): void;
    onPointerMove(e: React.PointerEvent): void;
    onPointerUp(e: React.PointerEvent): void;
    onDoubleClick(e: React.MouseEvent): void;
  };
}

/** Wheel: a notch of a mouse wheel zooms by about 15 %; a pinch (ctrlKey wheel events) follows the fingers. */
function wheelFactor(e: WheelEvent): number {
  const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
  const k = e.ctrlKey ? 0.01 : 0.0015;
  return Math.exp(-e.deltaY * lines * k);
}

export function useZoomPan(container: React.RefObject<HTMLElement | null>, image: Size | null): ZoomPan {
  const [viewport, setViewport] = useState<Size>({ width: 0, height: 0 });
  const [view, setView] = useState<View | null>(null);
  const [fitted, setFitted] = useState(true);
  const [dragging, setDragging] = useState(false);
  const drag = useRef<{ x: number; y: number; id: number } | null>(null);
  const latest = useRef({ view, viewport, image });
  latest.current = { view, viewport, image };

  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    const measure = () => setViewport({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [container]);

  // A new photo starts fitted; a resize keeps it fitted, or keeps the zoomed view in bounds.
  const imageKey = image ? `${image.width}x${image.height}` : '';
  useLayoutEffect(() => setFitted(true), [imageKey]);
  useLayoutEffect(() => {
    if (!image || !viewport.width || !viewport.height) return setView(null);
    setView((v) => (fitted || !v ? fitView(image, viewport) : clampView(v, image, viewport)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the image's size is what matters
  }, [imageKey, viewport.width, viewport.height, fitted]);

  const centre = () => ({ x: latest.current.viewport.width / 2, y: latest.current.viewport.height / 2 });
  const apply = useCallback((next: (v: View, image: Size, viewport: Size) => View) => {
    const { view: v, image: img, viewport: vp } = latest.current;
    if (!v || !img) return;
    const n = next(v, img, vp);
    setView(n);
    setFitted(n.scale <= fitScale(img, vp) + 1e-9);
  }, []);

  const zoomBy = useCallback(
    (factor: number, at?: { x: number; y: number }) =>
      apply((v, img, vp) => zoomTo(v, v.scale * factor, at ?? centre(), img, vp)),
    [apply],
  );
  const actualSize = useCallback(
    (at?: { x: number; y: number }) => apply((v, img, vp) => zoomTo(v, 1, at ?? centre(), img, vp)),
    [apply],
  );
  const fit = useCallback(() => {
    setFitted(true);
    const { image: img, viewport: vp } = latest.current;
    if (img) setView(fitView(img, vp));
  }, []);
  const pan = useCallback((dx: number, dy: number) => apply((v, img, vp) => panBy(v, dx, dy, img, vp)), [apply]);

  // React's wheel listener is passive; zooming must keep the page from scrolling.
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!latest.current.view) return;
      e.preventDefault();
      const box = el.getBoundingClientRect();
      zoomBy(wheelFactor(e), { x: e.clientX - box.left, y: e.clientY - box.top });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [container, zoomBy]);

  const point = (e: React.MouseEvent) => {
    const box = container.current!.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const handlers = {
    onPointerDown(e: React.PointerEvent) {
      if (e.button !== 0) return;
      drag.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
      (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    },
    onPointerMove(e: React.PointerEvent) {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!dragging && Math.abs(dx) + Math.abs(dy) < 3) return;
      setDragging(true);
      drag.current = { ...d, x: e.clientX, y: e.clientY };
      pan(dx, dy);
    },
    onPointerUp(e: React.PointerEvent) {
      if (drag.current?.id !== e.pointerId) return;
      drag.current = null;
      setDragging(false);
    },
    onDoubleClick(e: React.MouseEvent) {
      const { view: v } = latest.current;
      if (!v) return;
      if (v.scale < 1 - 1e-9) actualSize(point(e));
      else fit();
    },
  };

  return { view, viewport, fitted, fit, actualSize, zoomBy, pan, dragging, handlers };
}
