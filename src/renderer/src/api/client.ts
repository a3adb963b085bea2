/**
 * The typed client: calls and events from the shared contract, with every answer and event
 * validated against its schema here too (a bug in main shows up as a typed error, not a crash).
 */
import {
  callErrorSchema,
  calls,
  events,
  type CallInput,
  type CallName,
  type CallOutput,
  type EventName,
  type EventPayload,
} from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { createTransport, type Transport } from './transport';

export class Client {
  /** Events this window raises for itself (the refresh after a reconnect), delivered like pushed ones. */
  private readonly localListeners = new Set<(event: string, payload: unknown) => void>();

  constructor(readonly transport: Transport) {}

  async call<N extends CallName>(name: N, input: CallInput<N>): Promise<Result<CallOutput<N>>> {
    let raw: unknown;
    try {
      raw = await this.transport.call(name, input);
    } catch (err) {
      return { ok: false, error: { code: 'unavailable', message: (err as Error)?.message ?? 'Call failed' } };
    }
    const r = raw as { ok?: unknown; value?: unknown; error?: unknown };
    if (r?.ok === true) {
      const out = calls[name].output.safeParse(r.value);
      if (out.success) return { ok: true, value: out.data as CallOutput<N> };
      console.error(`answer to ${name} violates the contract`, out.error);
      return { ok: false, error: { code: 'internal', message: `Circa sent an invalid answer to ${name}` } };
    }
    const err = callErrorSchema.safeParse(r?.error);
    return { ok: false, error: err.success ? err.data : { code: 'internal', message: 'Malformed error from Circa' } };
  }

  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void {
    const deliver = (event: string, payload: unknown) => {
      if (event !== name) return;
      const parsed = events[name].safeParse(payload);
      if (parsed.success) listener(parsed.data as EventPayload<N>);
    };
    const off = this.transport.onEvent(deliver);
    this.localListeners.add(deliver);
    return () => {
      off();
      this.localListeners.delete(deliver);
    };
  }

  /** Delivers an event to this window's listeners as if main had pushed it (validated the same way). */
  raiseLocally<N extends EventName>(name: N, payload: EventPayload<N>): void {
    this.localListeners.forEach((l) => l(name, payload));
  }
}

export const client = new Client(createTransport());
