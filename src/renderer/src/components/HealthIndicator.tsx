/** Always visible: is the core reachable, how many workers are alive, is processing paused. */
import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useConnection, useQuery } from '../api/hooks';
import type { CallOutput } from '../../../shared/contract';
import { healthView } from './healthView';

type Health = CallOutput<'app.health'>;

const CHECK_EVERY_MS = 3000;
/** While workers start (or the library reopens) the indicator follows closely, so "starting" does not linger. */
const CHECK_STARTING_MS = 500;

export function HealthIndicator() {
  const connection = useConnection();
  const [health, setHealth] = useState<Health>();
  const [failed, setFailed] = useState<{ code: string; message: string }>();

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      const r = await client.call('app.health', {});
      if (!alive) return;
      if (r.ok) {
        setHealth(r.value);
        setFailed(undefined);
      } else setFailed({ code: r.error.code, message: r.error.message });
      const starting = r.ok ? r.value.workers.alive === 0 && r.value.workers.starting > 0 : r.error.code === 'unavailable';
      timer = setTimeout(() => void check(), starting ? CHECK_STARTING_MS : CHECK_EVERY_MS);
    };
    void check();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [connection]);

  // Pause/resume shows at once, not at the next poll: the job counts in the cache carry it.
  const paused = useQuery('jobs.counts', {}).data?.paused;
  useEffect(() => {
    if (paused !== undefined) setHealth((h) => (h && h.paused !== paused ? { ...h, paused } : h));
  }, [paused]);

  const { state, label } = healthView(connection, health, failed);
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
