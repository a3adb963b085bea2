import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../../shared/contract';
import type { CallError } from '../../../shared/result';
import { client } from './client';
import { QueryCache, type QueryOptions } from './query-cache';
import type { ConnectionState } from './transport';
import { onReconnect } from './reconnect';
import { writeEventsIntoCache } from './server-events';

export interface Query<T> {
  data: T | undefined;
  error: CallError | undefined;
  loading: boolean;
  reload(): void;
}

/** The window's one cache of server state (see query-cache.ts); re-read whole when the connection comes back. */
export const queryCache = new QueryCache(client);
onReconnect(client, () => queryCache.refetchAll());
writeEventsIntoCache(client, queryCache);

const NOT_ASKED = { data: undefined, error: undefined, loading: false };

/**
 * `name(input)` from the shared cache: read when first shown, again when `deps` change, and after
 * each event in `opts.invalidateOn`; `reload` reads it again now (after an action that changed it).
 * `enabled: false` asks nothing and shows nothing (a job not started yet, a mode not on).
 */
export function useQuery<N extends CallName>(
  name: N,
  input: CallInput<N>,
  deps: unknown[] = [],
  { enabled = true, ...opts }: QueryOptions & { enabled?: boolean } = {},
): Query<CallOutput<N>> {
  const key = QueryCache.key(name, input);
  const optsKey = enabled ? JSON.stringify(opts) : '';
  const inputRef = useRef(input);
  inputRef.current = input;
  const subscribe = useCallback(
    (onChange: () => void) =>
      optsKey ? queryCache.subscribe(name, inputRef.current, JSON.parse(optsKey) as QueryOptions, onChange) : () => {},
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the input
    [key, optsKey],
  );
  const snapshot = useSyncExternalStore(subscribe, () => (enabled ? queryCache.snapshot(name, inputRef.current) : NOT_ASKED));
  const reload = useCallback(() => {
    if (enabled) queryCache.refetch(name, inputRef.current);
  }, [name, enabled]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read when the caller's deps change
  }, deps);
  return { ...(snapshot as { data: CallOutput<N> | undefined; error: CallError | undefined; loading: boolean }), reload };
}

export function useEvent<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => client.on(name, (p) => ref.current(p)), [name]);
}

/** Calls the latest `listener` each time the connection is open again after having been lost. */
export function useReconnected(listener: () => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => onReconnect(client, () => ref.current()), []);
}

export function useConnection(): ConnectionState {
  const [state, setState] = useState<ConnectionState>('connecting');
  useEffect(() => client.transport.onState(setState), []);
  return state;
}
