import { useEffect, useState } from 'react';
import { HealthIndicator } from './components/HealthIndicator';
import { navigate, useRoute } from './router';
import { useEvent } from './api/hooks';
import { JobsScreen } from './screens/JobsScreen';
import { LibraryScreen } from './screens/LibraryScreen';
import { PhotoScreen } from './screens/PhotoScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { BackupsScreen } from './screens/BackupsScreen';
import { DuplicatesScreen } from './screens/DuplicatesScreen';
import { JobCountsBadge } from './components/JobCountsBadge';
import { DuplicatesBadge } from './components/DuplicatesBadge';
import { SessionProvider } from './session/session';
import { ConnectionBanner, useOffline } from './components/ConnectionBanner';
import { KeyboardHelpButton } from './keyboard/KeyboardHelp';

const NAV = [
  { screen: 'library', href: '#/library', label: 'Library' },
  { screen: 'duplicates', href: '#/duplicates', label: 'Duplicates' },
  { screen: 'jobs', href: '#/jobs', label: 'Jobs' },
  { screen: 'backups', href: '#/backups', label: 'Backups' },
  { screen: 'settings', href: '#/settings', label: 'Settings' },
] as const;

export function App() {
  const route = useRoute();
  const active = route.screen === 'photo' ? 'library' : route.screen;
  // File → Export… in the desktop menu: the export dialog lives in the library.
  const [exportRequest, setExportRequest] = useState(0);
  // A command from the desktop menu, not server state: no cache entry.
  useEvent('menu.command', (e) => {
    if (e.command !== 'export') return;
    if (route.screen !== 'library') navigate('/library');
    setExportRequest((n) => n + 1);
  });
  // A file dropped outside the library must never navigate the window away from Circa.
  useEffect(() => {
    const stop = (e: DragEvent) => e.preventDefault();
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
  // The library stays mounted (hidden, inert) under an open photo: its scroll, selection and
  // loaded pages are still there on the way back.
  const libraryAlive = route.screen === 'library' || route.screen === 'photo';
  const photoOpen = route.screen === 'photo' && route.id != null;
  // Disconnected: the screens stay visible (what was last known) but take no clicks or keys.
  const offline = useOffline();
  return (
    <SessionProvider>
      <div className="app">
        <nav className="sidebar" aria-label="Main">
          <div className="brand">
            Circa<span className="brand-sub">photo dating workbench</span>
          </div>
          <ul>
            {NAV.map((n) => (
              <li key={n.screen}>
                <a href={n.href} aria-current={active === n.screen ? 'page' : undefined} className="nav-link">
                  {n.label}
                  {n.screen === 'jobs' && <JobCountsBadge />}
                  {n.screen === 'duplicates' && <DuplicatesBadge />}
                </a>
              </li>
            ))}
          </ul>
          <div className="sidebar-foot">
            <KeyboardHelpButton />
            <HealthIndicator />
          </div>
        </nav>
        <ConnectionBanner offline={offline} />
        <main className={offline ? 'content content-offline' : 'content'} id="content" inert={offline}>
          {libraryAlive && (
            <div className={photoOpen ? 'screen-host screen-host-hidden' : 'screen-host'} inert={photoOpen}>
              <LibraryScreen active={!photoOpen} exportRequest={exportRequest} />
            </div>
          )}
          {photoOpen && <PhotoScreen id={route.id!} review={!!route.review} />}
          {route.screen === 'jobs' && <JobsScreen selectedId={route.id} />}
          {route.screen === 'backups' && <BackupsScreen />}
          {route.screen === 'settings' && <SettingsScreen />}
          {route.screen === 'duplicates' && <DuplicatesScreen />}
        </main>
      </div>
    </SessionProvider>
  );
}
