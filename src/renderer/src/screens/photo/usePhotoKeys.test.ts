import { describe, expect, it, vi } from 'vitest';
import { photoKeyAction, type PhotoKeyActions } from './usePhotoKeys';

function actions(): PhotoKeyActions {
  return { back: vi.fn(), previous: vi.fn(), next: vi.fn(), move: vi.fn(), decide: vi.fn(), undo: vi.fn(), zoom: vi.fn() };
}
const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('the photo screen’s keys (as listed in the README)', () => {
  it.each([
    ['a', 'decide', 'accepted'],
    ['A', 'decide', 'accepted'],
    ['r', 'decide', 'rejected'],
    ['u', 'decide', 'pending'],
    ['Backspace', 'decide', 'pending'],
    ['ArrowUp', 'move', -1],
    ['ArrowDown', 'move', 1],
    ['=', 'zoom', 'in'],
    ['-', 'zoom', 'out'],
    ['0', 'zoom', 'fit'],
    ['1', 'zoom', 'actual'],
  ] as const)('%s → %s(%s)', (key, name, arg) => {
    const a = actions();
    photoKeyAction(press(key), a)!();
    expect(a[name]).toHaveBeenCalledWith(arg);
  });

  it.each([
    ['j', 'next'],
    ['ArrowRight', 'next'],
    ['k', 'previous'],
    ['ArrowLeft', 'previous'],
    ['Escape', 'back'],
  ] as const)('%s → %s', (key, name) => {
    const a = actions();
    photoKeyAction(press(key), a)!();
    expect(a[name]).toHaveBeenCalled();
  });

  it("+ zooms in with or without Shift (it needs Shift on many keyboards); Ctrl/Cmd with it is the browser's", () => {
    const a = actions();
    photoKeyAction(press('+', { shiftKey: true }), a)!();
    expect(a.zoom).toHaveBeenCalledWith('in');
    expect(photoKeyAction(press('+', { ctrlKey: true }), a)).toBeNull();
    expect(photoKeyAction(press('0', { ctrlKey: true }), a)).toBeNull();
  });

  it('Ctrl+Z and Cmd+Z undo; Ctrl+Shift+Z, Alt and other modified keys are left to the browser', () => {
    const a = actions();
    photoKeyAction(press('z', { ctrlKey: true }), a)!();
    photoKeyAction(press('z', { metaKey: true }), a)!();
    expect(a.undo).toHaveBeenCalledTimes(2);
    expect(photoKeyAction(press('z', { ctrlKey: true, shiftKey: true }), a)).toBeNull();
    expect(photoKeyAction(press('a', { altKey: true }), a)).toBeNull();
    expect(photoKeyAction(press('a', { ctrlKey: true }), a)).toBeNull();
    expect(photoKeyAction(press('x'), a)).toBeNull();
  });
});
