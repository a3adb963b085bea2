/**
 * While main cannot be reached (browser mode: the server stopped or restarted) the screens show
 * what they last knew. This says so plainly at the top, and `useOffline` makes the screens inert
 * (no clicks, no keys) until the connection is back; then every screen re-reads what it shows
 * (api/reconnect.ts) and the focus returns to where it was.
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../api/client';
import { useConnection } from '../api/hooks';
import { onReconnect, raiseRefreshEvents } from '../api/reconnect';
import { restoreFocus } from './focus';

/** True while the connection is lost (not during the first connect, which takes a few milliseconds). */
export function useOffline(): boolean {
  const state = useConnection();
  const [everOpen, setEverOpen] = useState(false);
  useEffect(() => {
    if (state === 'open') setEverOpen(true);
  }, [state]);
  return state === 'closed' || (state === 'connecting' && everOpen);
}

export function ConnectionBanner({ offline }: { offline: boolean }) {
  const [refreshing, setRefreshing] = useState(false);
  const focusBefore = useRef<HTMLElement | null>(null);
  const banner = useRef<HTMLDivElement>(null);

  useEffect(
    () =>
      onReconnect(client, () => {
        setRefreshing(true);
        void raiseRefreshEvents(client).finally(() => setRefreshing(false));
      }),
    [],
  );

  // The screens go inert, which drops the focus: remember where it was and give it back.
  useEffect(() => {
    if (offline) {
      const active = document.activeElement;
      focusBefore.current = active instanceof HTMLElement && active !== document.body ? active : null;
      banner.current?.focus();
    } else if (focusBefore.current) {
      restoreFocus(focusBefore.current);
      focusBefore.current = null;
    }
  }, [offline]);

  if (!offline && !refreshing) return null;
  return (
    <div
      ref={banner}
      tabIndex={-1}
      className={`connection-banner${offline ? '' : ' connection-banner-back'}`}
      role={offline ? 'alert' : 'status'}
      data-testid="connection-banner"
      data-state={offline ? 'offline' : 'refreshing'}
    >
      {offline ? (
        <>
          <strong>Not connected to Circa.</strong> Trying to reconnect… What you see may be out of date, and nothing can be
          changed until the connection is back.
        </>
      ) : (
        <>Connected again — bringing everything up to date…</>
      )}
    </div>
  );
}
