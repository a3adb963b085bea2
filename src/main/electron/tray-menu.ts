/**
 * What the tray shows, as plain data, and a presenter that touches the real tray only when that
 * changes: jobs.changed arrives several times a second during a batch, and rebuilding the
 * context menu each time makes an open menu flicker or close on Linux. The counts live in the
 * tooltip (cheap to set, and set only when its text changes); the menu depends only on pause.
 */
import type { JobCounts } from '../../shared/contract';

export type TrayItemId = 'show' | 'toggle-pause' | 'open-library' | 'quit';
export type TrayMenuItem = { id: TrayItemId; label: string } | { separator: true };

export interface TrayState {
  running: number;
  queued: number;
  failed: number;
  paused: boolean;
}

export function trayState(counts: Pick<JobCounts, 'running' | 'queued' | 'failed'>, paused: boolean): TrayState {
  return { running: counts.running, queued: counts.queued, failed: counts.failed, paused };
}

export function trayTooltip(s: TrayState): string {
  return `Circa — ${s.running} running, ${s.queued} queued, ${s.failed} failed${s.paused ? ' (paused)' : ''}`;
}

export function trayMenu(s: Pick<TrayState, 'paused'>): TrayMenuItem[] {
  return [
    { id: 'show', label: 'Show Circa' },
    { separator: true },
    { id: 'toggle-pause', label: s.paused ? 'Resume processing' : 'Pause processing' },
    { id: 'open-library', label: 'Open library folder' },
    { separator: true },
    { id: 'quit', label: 'Quit Circa' },
  ];
}

export interface TraySink {
  setToolTip(text: string): void;
  setMenu(items: TrayMenuItem[]): void;
}

export class TrayPresenter {
  private tooltip: string | null = null;
  private menuKey: string | null = null;

  constructor(private readonly sink: TraySink) {}

  update(s: TrayState): void {
    const tooltip = trayTooltip(s);
    if (tooltip !== this.tooltip) {
      this.tooltip = tooltip;
      this.sink.setToolTip(tooltip);
    }
    const menu = trayMenu(s);
    const key = JSON.stringify(menu);
    if (key !== this.menuKey) {
      this.menuKey = key;
      this.sink.setMenu(menu);
    }
  }
}
