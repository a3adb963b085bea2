import { HealthIndicator } from './components/HealthIndicator';
import { useRoute } from './router';
import { JobsScreen } from './screens/JobsScreen';
import { LibraryScreen } from './screens/LibraryScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { JobCountsBadge } from './components/JobCountsBadge';

const NAV = [
  { screen: 'library', href: '#/library', label: 'Library' },
  { screen: 'jobs', href: '#/jobs', label: 'Jobs' },
  { screen: 'settings', href: '#/settings', label: 'Settings' },
] as const;

export function App() {
  const route = useRoute();
  const active = route.screen === 'photo' ? 'library' : route.screen;
  return (
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
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          <HealthIndicator />
        </div>
      </nav>
      <main className="content" id="content">
        {route.screen === 'library' && <LibraryScreen />}
        {route.screen === 'jobs' && <JobsScreen selectedId={route.id} />}
        {route.screen === 'settings' && <SettingsScreen />}
      </main>
    </div>
  );
}
