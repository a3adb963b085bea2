import { describe, expect, it } from 'vitest';
import { healthView, type HealthFacts } from './healthView';

const health = (workers: HealthFacts['workers'], paused = false): HealthFacts => ({ workers, paused });

describe('healthView', () => {
  it('workers that are starting are said to be starting, not an error', () => {
    const v = healthView('open', health({ alive: 0, configured: 1, starting: 1, failed: 0 }));
    expect(v.state).toBe('starting');
    expect(v.label).toBe('Connected · starting workers…');
    expect(v.label).not.toMatch(/cannot run/);
  });

  it('only a worker that could not start is an error', () => {
    const v = healthView('open', health({ alive: 0, configured: 1, starting: 0, failed: 1 }));
    expect(v.state).toBe('degraded');
    expect(v.label).toBe('Connected · 0/1 workers — a worker could not start; jobs cannot run');
    const some = healthView('open', health({ alive: 1, configured: 2, starting: 0, failed: 1 }));
    expect(some.state).toBe('degraded');
    expect(some.label).toBe('Connected · 1/2 workers — 1 could not start');
  });

  it('all ready, some restarting, paused', () => {
    expect(healthView('open', health({ alive: 2, configured: 2, starting: 0, failed: 0 }, true))).toEqual({
      state: 'ok',
      label: 'Connected · 2/2 workers · paused',
    });
    expect(healthView('open', health({ alive: 1, configured: 2, starting: 1, failed: 0 })).label).toBe(
      'Connected · 1/2 workers (1 starting)',
    );
  });

  it('a library being restored is a wait, not a problem; other call failures are problems', () => {
    const restoring = healthView('open', undefined, {
      code: 'unavailable',
      message: 'The library is being restored; try again in a moment',
    });
    expect(restoring).toEqual({ state: 'starting', label: 'The library is being restored; try again in a moment' });
    expect(healthView('open', undefined, { code: 'internal', message: 'boom' })).toEqual({
      state: 'degraded',
      label: 'Problem: boom',
    });
    expect(healthView('closed', undefined).state).toBe('down');
    expect(healthView('connecting', undefined).label).toBe('Connecting…');
  });
});
