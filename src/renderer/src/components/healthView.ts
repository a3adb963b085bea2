/**
 * What the health indicator says. Workers still starting (the app opening, a restore reopening
 * the library, a replacement after a crash) are a wait, not an error: only a worker that could
 * not be started makes it an error.
 */
import type { CallOutput } from '../../../shared/contract';
import type { ConnectionState } from '../api/transport';

export type HealthFacts = Pick<CallOutput<'app.health'>, 'workers' | 'paused'>;
export type HealthState = 'ok' | 'starting' | 'degraded' | 'down';

export function healthView(
  connection: ConnectionState,
  health: HealthFacts | undefined,
  failure?: { code: string; message: string },
): { state: HealthState; label: string } {
  if (connection === 'connecting') return { state: 'down', label: 'Connecting…' };
  if (connection !== 'open') return { state: 'down', label: 'Disconnected — reconnecting' };
  // "unavailable": the library is being restored or reopened; it comes back by itself.
  if (failure)
    return failure.code === 'unavailable'
      ? { state: 'starting', label: failure.message }
      : { state: 'degraded', label: `Problem: ${failure.message}` };
  if (!health) return { state: 'down', label: 'Checking…' };
  const { alive, configured, starting, failed } = health.workers;
  const paused = health.paused ? ' · paused' : '';
  if (configured > 0 && alive === 0 && failed > 0)
    return {
      state: 'degraded',
      label: `Connected · 0/${configured} workers — a worker could not start; jobs cannot run${paused}`,
    };
  if (configured > 0 && alive === 0 && starting > 0)
    return { state: 'starting', label: `Connected · starting workers…${paused}` };
  const count = `Connected · ${alive}/${configured} workers`;
  if (failed > 0) return { state: 'degraded', label: `${count} — ${failed} could not start${paused}` };
  return { state: 'ok', label: `${count}${starting > 0 ? ` (${starting} starting)` : ''}${paused}` };
}
