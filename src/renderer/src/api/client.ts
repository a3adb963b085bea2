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
  /** Listeners by event name. One transport subscription delivers to them all, so an event is parsed once. */
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private unsubscribeTransport: (() => void) | null = null;

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
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    this.unsubscribeTransport ??= this.transport.onEvent((event, payload) => this.deliver(event, payload));
    return () => {
      set.delete(l);
    };
  }

  /** Delivers an event to this window's listeners as if main had pushed it (validated the same way). */
  raiseLocally<N extends EventName>(name: N, payload: EventPayload<N>): void {
    this.deliver(name, payload);
  }

  /** Validates an event once against its schema and hands it to every listener of its name. */
  private deliver(event: string, payload: unknown): void {
    const set = this.listeners.get(event);
    if (!set?.size || !(event in events)) return;
    const parsed = events[event as EventName].safeParse(payload);
    if (!parsed.success) return;
    // A copy: a listener may unsubscribe (or subscribe another) while the event is delivered.
    for (const l of [...set]) l(parsed.data);
  }
}

export const client = new Client(createTransport());
