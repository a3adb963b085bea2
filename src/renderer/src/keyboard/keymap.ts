/**
 * Every key Circa answers to, in one list: the `?` overlay shows it and the README's Keyboard
 * table is checked against it (keymap.test.ts), so a key added to a screen without a line here is
 * noticed. Plain words, as an archivist would look them up.
 */
export interface KeyBinding {
  /** The screen or part of it where the key works. */
  where: string;
  keys: string;
  does: string;
}

export const KEYMAP: readonly KeyBinding[] = [
  { where: 'anywhere', keys: '?', does: 'show this list of keys (outside text fields)' },
  { where: 'any dialog', keys: 'Escape', does: 'close the dialog; the focus goes back to what opened it' },
  {
    where: 'photo',
    keys: 'A / R / U or Backspace',
    does: 'accept / reject / reset the highlighted finding (accept and reject move on to the next pending one)',
  },
  { where: 'photo', keys: '↑ / ↓', does: 'highlight the finding above / below' },
  {
    where: 'photo',
    keys: 'J or → / K or ←',
    does: 'next / previous photo (in review mode: the next / previous one that needs review)',
  },
  { where: 'photo', keys: 'Ctrl/Cmd+Z', does: 'undo the last action on this photo' },
  { where: 'photo', keys: '+ / −', does: 'zoom the photo in / out' },
  { where: 'photo', keys: '0 / 1', does: 'fit the photo to the view / show it at actual size' },
  { where: 'photo, zoomed in', keys: 'arrows', does: 'move around the photo (the image has the focus)' },
  { where: 'photo', keys: 'Escape', does: 'back to the library (from the notes field: leave the field first)' },
  { where: 'photo, notes', keys: 'Ctrl/Cmd+Enter', does: 'save the notes' },
  { where: 'photo, review note', keys: 'Enter / Escape', does: 'save the note / close it' },
  { where: 'library', keys: 'arrows, Home / End, Page Up / Down', does: 'move in the grid' },
  { where: 'library', keys: 'Enter', does: 'open the focused photo' },
  { where: 'library', keys: 'Space; Shift+arrows; Ctrl/Cmd+A; Escape', does: 'toggle; extend; select all; clear the selection' },
  { where: 'library', keys: 'Shift-click / Ctrl-click', does: 'select a range / add a photo' },
  { where: 'library, search', keys: 'Escape', does: 'clear the search' },
  { where: 'import panel', keys: 'Ctrl/Cmd+Enter', does: 'import the paths typed; Escape closes the panel' },
  { where: 'jobs', keys: '↑ / ↓', does: 'the job above / below (in the list of jobs)' },
  { where: 'duplicates', keys: 'A / R', does: 'same photograph / not the same (the highlighted group)' },
  { where: 'duplicates', keys: 'X / P', does: 'take the highlighted copy out of the group / make it the preferred original' },
  { where: 'duplicates', keys: '← / → ; ↑ / ↓ or K / J', does: 'highlight a copy; the previous / next group' },
  { where: 'duplicates', keys: 'U', does: 'unconfirm a group (in "Same photograph"); propose a pair again (in "Not the same")' },
  { where: 'duplicates', keys: 'Enter; Ctrl/Cmd+Z', does: 'open the highlighted copy; undo the last decision' },
  { where: 'settings, API key', keys: 'Enter', does: 'save the key' },
];
