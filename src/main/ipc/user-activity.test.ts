import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { createDispatcher, type Handlers } from './dispatcher';
import { UserActivity } from './user-activity';

describe('UserActivity', () => {
  it('is told of every request the dispatcher receives, refused ones included', async () => {
    let t = 0;
    const activity = new UserActivity(() => t);
    const dispatch = createDispatcher({ 'app.health': () => ({}) } as unknown as Handlers, {
      validateOutput: false,
      log: silentLogger,
      onRequest: activity.noteRequest,
    });
    expect(activity.activeWithin(2_000)).toBe(false);
    await dispatch('no.such.call', {});
    expect(activity.activeWithin(1)).toBe(true);
    t += 5_000;
    expect(activity.activeWithin(2_000)).toBe(false);
    expect(await dispatch('photos.setNotes', { id: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(activity.activeWithin(1)).toBe(true);
  });
});
