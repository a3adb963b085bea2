/**
 * The library grid stays mounted (hidden) while a photo is open, so the photo screen can ask it
 * for the previous/next photo in the grid's current order, and tell it which photo to return to.
 */
export interface LibraryNav {
  neighbours(id: number): { prev?: number; next?: number; index?: number; total: number };
  /** Moves the grid's focus to this photo so that going back lands on it. */
  focusPhoto(id: number): void;
}

let current: LibraryNav | null = null;

export function setLibraryNav(nav: LibraryNav | null): void {
  current = nav;
}

export function libraryNav(): LibraryNav | null {
  return current;
}
