/**
 * Hash routes: #/library, #/photo/7, #/review/7 (a photo in review mode), #/jobs, #/jobs/42, #/backups,
 * #/settings, #/duplicates.
 * The hash survives reloads in both modes.
 */
import { useEffect, useState } from 'react';

export interface Route {
  screen: 'library' | 'photo' | 'jobs' | 'backups' | 'settings' | 'duplicates';
  id?: number;
  /** Review mode: the photo screen steps through the photos that need review. */
  review?: boolean;
}

export function parseRoute(hash: string): Route {
  const [, screen, id] = hash.replace(/^#/, '').split('/');
  const n = id ? Number(id) : undefined;
  if (screen === 'jobs') return { screen: 'jobs', id: Number.isInteger(n) ? n : undefined };
  if (screen === 'settings') return { screen: 'settings' };
  if (screen === 'backups') return { screen: 'backups' };
  if (screen === 'duplicates') return { screen: 'duplicates' };
  if (screen === 'photo' && Number.isInteger(n)) return { screen: 'photo', id: n };
  if (screen === 'review' && Number.isInteger(n)) return { screen: 'photo', id: n, review: true };
  return { screen: 'library' };
}

export function navigate(path: string): void {
  location.hash = path;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
