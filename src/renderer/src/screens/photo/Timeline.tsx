/**
 * The evidence on a year axis: one row per current item (bars for intervals, arrows for open
 * ends; colour by source; dashed outline while pending, hatched and dimmed when rejected), the
 * estimate as a band across every row, and items in conflict outlined in red with the reason on
 * hover. Plain SVG sized to its container, so text stays crisp at any width.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { EstimateView, EvidenceItem } from '../../../../shared/contract';
import {
  REVIEW_LABEL,
  SOURCE_COLOUR,
  SOURCE_LABEL,
  SOURCE_ORDER,
  conflictReasons,
  dayToYear,
  kindLabel,
  yearSpan,
  type Source,
} from './evidenceFormat';

const ROW = 24;
const TOP = 22;
const AXIS = 28;
const LABEL_W = 86;
const RIGHT = 14;
const CONFLICT = '#b3261e';
const TICK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];

const SHORT: Record<Source, string> = { exif: 'EXIF', ocr: 'OCR', ai: 'AI', manual: 'Manual', duplicate: 'Dup.', note: 'Note' };

interface Props {
  items: EvidenceItem[];
  estimate: EstimateView | undefined;
  focusedId: number | null;
  onSelect(id: number): void;
}

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/** The axis: every finite end (and the estimate), padded so nothing touches the edges. */
function domain(items: EvidenceItem[], estimate: EstimateView | undefined): [number, number] | null {
  const ends: number[] = [];
  for (const i of items) {
    if (i.earliest != null) ends.push(dayToYear(i.earliest));
    if (i.latest != null) ends.push(dayToYear(i.latest, true));
  }
  if (estimate?.earliest != null) ends.push(dayToYear(estimate.earliest));
  if (estimate?.latest != null) ends.push(dayToYear(estimate.latest, true));
  if (!ends.length) return null;
  let lo = Math.floor(Math.min(...ends));
  let hi = Math.ceil(Math.max(...ends));
  if (hi - lo < 8) {
    const mid = (lo + hi) / 2;
    lo = Math.floor(mid - 4);
    hi = Math.ceil(mid + 4);
  }
  const pad = Math.max(2, Math.round((hi - lo) * 0.08));
  // Open-ended bounds need room past the last date to show that they go on.
  return [lo - pad, hi + pad];
}

function ticks(lo: number, hi: number, px: number): { values: number[] } {
  const maxTicks = Math.max(2, Math.floor(px / 52));
  const step = TICK_STEPS.find((s) => (hi - lo) / s <= maxTicks) ?? 1000;
  const values: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) values.push(v);
  return { values };
}

function describe(items: EvidenceItem[], estimate: EstimateView | undefined, lo: number, hi: number): string {
  const parts = [`Timeline of ${items.length} evidence item${items.length === 1 ? '' : 's'} on a year axis from ${lo} to ${hi}.`];
  if (estimate?.dacs) parts.push(`Estimate: ${estimate.dacs}.`);
  if (estimate?.conflicts.length)
    parts.push(
      `${estimate.conflicts.length} conflict${estimate.conflicts.length === 1 ? '' : 's'}: ${estimate.conflicts.map((c) => c.reason).join(' ')}`,
    );
  return parts.join(' ');
}

export function Timeline({ items, estimate, focusedId, onSelect }: Props) {
  const [ref, measured] = useWidth<HTMLDivElement>();
  const width = Math.max(300, measured);
  const rows = items.filter((i) => !i.superseded && (i.earliest != null || i.latest != null));
  const dom = domain(rows, estimate);
  const conflicts = conflictReasons(estimate?.conflicts ?? []);
  const sources = SOURCE_ORDER.filter((s) => rows.some((r) => r.source === s));

  let body: React.ReactNode;
  if (!dom) {
    body = <p className="muted small timeline-empty">The timeline shows each finding’s dates once there are any.</p>;
  } else {
    const [lo, hi] = dom;
    const x0 = LABEL_W;
    const x1 = width - RIGHT;
    const x = (year: number) => x0 + ((year - lo) / (hi - lo)) * (x1 - x0);
    const height = TOP + rows.length * ROW + AXIS;
    const bottom = TOP + rows.length * ROW;
    const { values } = ticks(lo, hi, x1 - x0);
    const est =
      estimate && (estimate.earliest != null || estimate.latest != null)
        ? {
            a: estimate.earliest != null ? x(dayToYear(estimate.earliest)) : x0,
            b: estimate.latest != null ? x(dayToYear(estimate.latest, true)) : x1,
          }
        : null;

    // The band's label sits over the band, but never runs off either side.
    const half = ((estimate?.dacs ?? 'estimate').length * 6.4) / 2;
    const bandLabelX = est ? Math.min(width - half - 2, Math.max(half + 2, (est.a + est.b) / 2)) : 0;

    body = (
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={describe(rows, estimate, lo, hi)}
        className="timeline-svg"
        data-testid="timeline-svg"
      >
        <defs>
          {SOURCE_ORDER.map((s) => (
            <pattern key={s} id={`hatch-${s}`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" fill="#fff" />
              <line x1="0" y1="0" x2="0" y2="6" stroke={SOURCE_COLOUR[s]} strokeWidth="2" opacity="0.55" />
            </pattern>
          ))}
        </defs>

        {/* grid */}
        {values.map((v) => (
          <line key={v} x1={x(v)} x2={x(v)} y1={TOP - 4} y2={bottom} className="tl-grid" />
        ))}

        {/* the estimate band, behind the rows */}
        {est && (
          <g className="tl-estimate" data-testid="timeline-estimate">
            <title>{`Estimate: ${estimate?.dacs ?? ''}${estimate?.edtf ? ` (${estimate.edtf})` : ''}`}</title>
            <rect
              x={est.b - est.a < 4 ? (est.a + est.b) / 2 - 2 : est.a}
              width={Math.max(4, est.b - est.a)}
              y={TOP - 4}
              height={bottom - TOP + 4}
              className="tl-band"
            />
            <text x={bandLabelX} y={TOP - 8} textAnchor="middle" className="tl-band-label">
              {estimate?.dacs ?? 'estimate'}
            </text>
          </g>
        )}

        {rows.map((item, i) => {
          const y = TOP + i * ROW;
          const cy = y + ROW / 2;
          const colour = SOURCE_COLOUR[item.source];
          const reasons = conflicts.get(item.id);
          const bound = item.kind === 'bound';
          const h = bound ? 12 : 9;
          const a = item.earliest != null ? x(dayToYear(item.earliest)) : x0 + 2;
          const b = item.latest != null ? x(dayToYear(item.latest, true)) : x1 - 2;
          const open = item.earliest == null ? 'start' : item.latest == null ? 'end' : null;
          const w = Math.max(bound ? 4 : 8, b - a);
          const ax = b - a < w ? (a + b) / 2 - w / 2 : a;
          const status = item.reviewStatus;
          const title = [
            `#${item.id} ${SOURCE_LABEL[item.source]}: ${item.label ?? yearSpan(item.earliest, item.latest)}`,
            `${kindLabel(item)}, ${REVIEW_LABEL[status].toLowerCase()}`,
            item.summary,
            ...(reasons ?? []).map((r) => `Conflict: ${r}`),
          ].join('\n');
          const stroke = reasons ? CONFLICT : colour;
          return (
            <g
              key={item.id}
              className={`tl-row tl-${status}${reasons ? ' tl-conflict' : ''}${focusedId === item.id ? ' tl-focused' : ''}`}
              data-testid="timeline-row"
              data-evidence-id={item.id}
              data-conflict={reasons ? 'true' : undefined}
              onClick={() => onSelect(item.id)}
            >
              <title>{title}</title>
              <rect x={0} y={y} width={width} height={ROW} className="tl-row-bg" />
              <text x={8} y={cy} dominantBaseline="central" className="tl-label" fill={reasons ? CONFLICT : undefined}>
                {SHORT[item.source]} #{item.id}
              </text>
              {open ? (
                <>
                  {/* one-sided bound: a line to the edge ending in an arrow, and a cap at the known end */}
                  <line
                    x1={open === 'end' ? a : b}
                    x2={open === 'end' ? x1 - 8 : x0 + 8}
                    y1={cy}
                    y2={cy}
                    stroke={stroke}
                    strokeWidth={reasons ? 3 : 2.5}
                    strokeDasharray={status === 'pending' ? '5 3' : undefined}
                    opacity={status === 'rejected' ? 0.45 : 1}
                  />
                  <path
                    d={
                      open === 'end'
                        ? `M${x1 - 10},${cy - 5} L${x1},${cy} L${x1 - 10},${cy + 5} z`
                        : `M${x0 + 10},${cy - 5} L${x0},${cy} L${x0 + 10},${cy + 5} z`
                    }
                    fill={stroke}
                    opacity={status === 'rejected' ? 0.45 : 1}
                  />
                  <line
                    x1={open === 'end' ? a : b}
                    x2={open === 'end' ? a : b}
                    y1={cy - 7}
                    y2={cy + 7}
                    stroke={stroke}
                    strokeWidth={3}
                    opacity={status === 'rejected' ? 0.45 : 1}
                  />
                </>
              ) : (
                <rect
                  x={ax}
                  y={cy - h / 2}
                  width={w}
                  height={h}
                  rx={bound ? 1 : h / 2}
                  fill={status === 'rejected' ? `url(#hatch-${item.source})` : colour}
                  fillOpacity={status === 'accepted' ? 0.9 : status === 'pending' ? 0.35 : 1}
                  stroke={stroke}
                  strokeWidth={reasons ? 2.5 : 1.5}
                  strokeDasharray={status === 'pending' ? '4 2' : undefined}
                  opacity={status === 'rejected' ? 0.6 : 1}
                />
              )}
            </g>
          );
        })}

        {/* axis */}
        <line x1={x0} x2={x1} y1={bottom + 1} y2={bottom + 1} className="tl-axis" />
        {values.map((v) => (
          <g key={v}>
            <line x1={x(v)} x2={x(v)} y1={bottom + 1} y2={bottom + 6} className="tl-axis" />
            <text x={x(v)} y={bottom + 18} textAnchor="middle" className="tl-tick">
              {v}
            </text>
          </g>
        ))}
      </svg>
    );
  }

  return (
    <section className="timeline-card" aria-labelledby="timeline-title" data-testid="timeline">
      <div className="timeline-head">
        <h2 id="timeline-title">Timeline</h2>
        {sources.length > 0 && (
          <ul className="timeline-legend" aria-label="Legend">
            {sources.map((s) => (
              <li key={s}>
                <span className="legend-swatch" style={{ background: SOURCE_COLOUR[s] }} />
                {SOURCE_LABEL[s]}
              </li>
            ))}
            <li>
              <span className="legend-swatch legend-pending" /> pending
            </li>
            <li>
              <span className="legend-swatch legend-rejected" /> rejected
            </li>
            {estimate?.earliest != null || estimate?.latest != null ? (
              <li>
                <span className="legend-swatch legend-band" /> estimate
              </li>
            ) : null}
          </ul>
        )}
      </div>
      <div ref={ref} className="timeline-plot">
        {body}
      </div>
    </section>
  );
}
