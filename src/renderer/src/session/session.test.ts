import { describe, expect, it, vi } from 'vitest';
import { INITIAL_SESSION, SessionStore } from './session';

describe('the session store', () => {
  it('is one explicit store per app root: each starts fresh, and tells its listeners of changes', () => {
    const a = new SessionStore();
    const b = new SessionStore();
    const heard = vi.fn();
    const stop = a.subscribe(heard);
    a.set({ reviewSort: 'date', whyOpen: false });
    expect(a.get()).toMatchObject({ reviewSort: 'date', whyOpen: false });
    expect(b.get()).toEqual(INITIAL_SESSION);
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    a.set({ whyOpen: true });
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
