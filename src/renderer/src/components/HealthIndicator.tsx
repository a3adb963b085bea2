/** Always visible: is the core reachable, how many workers are alive, is processing paused. */
import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useConnection, useEvent } from '../api/hooks';
import type { CallOutput } from '../../../shared/contract';

type Health = CallOutput<'app.health'>;

export function HealthIndicator() {
  const connection = useConnection();
  const [health, setHealth] = useState<Health>();
  const [failed, setFailed] = useState<string>();

  useEffect(() => {
    let alive = true;
    const check = async () => {
      const r = await client.call('app.health', {});
      if (!alive) return;
      if (r.ok) {
        setHealth(r.value);
        setFailed(undefined);
      } else setFailed(r.error.message);
    };
    void check();
    const t = setInterval(check, 3000);
    return () => {
      alive = false;
      clearInterval(t);
    };
  }, [connection]);

  // Pause/resume shows at once, not at the next poll.
  useEvent('jobs.changed', (e) => setHealth((h) => (h && h.paused !== e.paused ? { ...h, paused: e.paused } : h)));

  const noWorkers = !!health && health.workers.configured > 0 && health.workers.alive === 0;
  const state = connection !== 'open' ? 'down' : failed || noWorkers ? 'degraded' : health ? 'ok' : 'down';
  const label =
    connection === 'connecting'
      ? 'Connecting…'
      : connection === 'closed'
        ? 'Disconnected — reconnecting'
        : failed
          ? `Problem: ${failed}`
          : health
            ? `Connected · ${health.workers.alive}/${health.workers.configured} workers${noWorkers ? ' — jobs cannot run' : ''}${health.paused ? ' · paused' : ''}`
            : 'Checking…';
  return (
    <div className={`health health-${state}`} role="status" aria-live="polite" data-testid="health" data-state={state}>
      <span className="health-dot" aria-hidden="true" />
      <span className="health-label">{label}</span>
      {health && (
        <span className="health-library" title={health.libraryDir}>
          {health.libraryDir}
        </span>
      )}
    </div>
  );
}
