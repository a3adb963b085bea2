import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../../shared/contract';
import type { CallError } from '../../../shared/result';
import { client } from './client';
import type { ConnectionState } from './transport';
import { onReconnect } from './reconnect';

export interface Query<T> {
  data: T | undefined;
  error: CallError | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Calls `name` now, whenever `deps` change and when the connection comes back after being lost;
 * `reload` calls again (e.g. on a pushed event).
 */
export function useQuery<N extends CallName>(name: N, input: CallInput<N>, deps: unknown[] = []): Query<CallOutput<N>> {
  const [data, setData] = useState<CallOutput<N>>();
  const [error, setError] = useState<CallError>();
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const inputRef = useRef(input);
  inputRef.current = input;
  const reload = useCallback(() => {
    const mine = ++seq.current;
    setLoading(true);
    void client.call(name, inputRef.current).then((r) => {
      if (mine !== seq.current) return; // a newer request superseded this one
      setLoading(false);
      if (r.ok) {
        setData(r.value);
        setError(undefined);
      } else setError(r.error);
    });
  }, [name]);
  useEffect(reload, [reload, ...deps]);
  useReconnected(reload);
  return { data, error, loading, reload };
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
