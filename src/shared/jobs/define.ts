/**
 * A job type, defined once: its payload, the worker's input and output (zod), its policy and how
 * the UI offers it. Main's half (load, apply) and the worker's half (run) are typed from this
 * definition, so a field that does not match is a compile error on both sides of the process
 * boundary. The list of types and every UI list of them are derived from the definitions in
 * ./types; the runtime itself knows no type.
 */
import { z } from 'zod';

export interface JobPolicy {
  /** Retryable failures allowed before the job lands in `failed`. */
  maxRetries: number;
  /** Wall-clock limit for one attempt in a worker; past it the attempt is aborted and retried. */
  timeoutMs: number;
  /**
   * Jobs handed to a worker in one message: several for short jobs (fewer messages), 1 for jobs
   * that take seconds or more. A worker runs them one at a time either way.
   */
  handOff: number;
  /**
   * How many jobs a worker may hold queued behind the one it runs, so it never waits on main
   * between jobs; they are claimed together when the queue is topped up. A held job keeps its
   * lease; an idle worker takes unstarted ones back from a busy one.
   */
  prefetch: number;
  /** At most this many jobs of the type run at once in one runner (default: one per worker). */
  concurrency?: number;
  /** `apply` may return a checkpoint: the job goes on in steps in the same lease and attempt. */
  checkpointed?: boolean;
}

/** Limits main hands to the worker with the input (the worker's heap limit is per process: see JobRunner). */
export interface JobLimits {
  /** Files larger than this are refused before they are read. */
  maxFileBytes?: number;
  /** Images with more pixels (width × height) than this are refused before they are decoded. */
  maxInputPixels?: number;
  /** A remote call (AI backend) is given up after this long. */
  requestTimeoutMs?: number;
}

export interface JobUi {
  /** Short name for lists and menus ("Metadata", "OCR", "AI analysis"). */
  label: string;
  /** The name inside a sentence when it differs ("Re-run metadata"); default: the label. */
  inSentence?: string;
  /** Offered as "Re-run …" for photos (the payload is `{ photoId }`). */
  rerunForPhotos?: boolean;
  /** Offered on the Jobs page's "Start" menu (the payload is `{}`). */
  startable?: boolean;
  /** How its subject reads when the job is not about a photo ("in /archive/scans"). */
  subjectWords?(subject: string): string;
  /** Why a retry alone cannot fix its permanent failure, and where the cause is fixed (default: the photo). */
  permanentRemedy?: { why: string; fix?: { label: string; href: string } };
}

export interface JobTypeDefinition<
  T extends string = string,
  P extends z.ZodType = z.ZodType,
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  U extends JobUi = JobUi,
  L extends JobLimits = JobLimits,
> {
  type: T;
  /** One line for the README and the Jobs page. */
  description: string;
  payload: P;
  /** What main's `load` hands the worker (built by main, so typed rather than re-validated). */
  input: I;
  /** What the worker returns; main validates it before `apply`, so no worker is trusted. */
  output: O;
  /** What the job is about, for idempotency (at most one active job per type + subject); null = no dedupe. */
  subject(payload: z.output<P>): string | null;
  policy: JobPolicy;
  limits: L;
  ui: U;
  /**
   * It reads a photo's file into the catalogue: the photo's metadata status follows this job. A
   * re-run starts the reading over, so it is offered for a photo that could not be read (the other
   * per-photo types skip such a photo: they would only fail again).
   */
  readsPhoto?: boolean;
  /** Exists only when the runtime is started with diagnostics on (tests, benchmarks). */
  diagnostic?: boolean;
}

export type AnyJobType = JobTypeDefinition<string, z.ZodType, z.ZodType, z.ZodType, JobUi, JobLimits>;

export type PayloadOf<D extends AnyJobType> = z.output<D['payload']>;
/** What an enqueue may pass (defaults not yet applied). */
export type PayloadInputOf<D extends AnyJobType> = z.input<D['payload']>;
export type InputOf<D extends AnyJobType> = z.output<D['input']>;
export type OutputOf<D extends AnyJobType> = z.output<D['output']>;

/** Keeps the literal types of a definition (its name and UI flags), so lists derived from it are typed. */
export function defineJobType<
  const T extends string,
  P extends z.ZodType,
  I extends z.ZodType,
  O extends z.ZodType,
  const U extends JobUi,
  const L extends JobLimits,
>(definition: JobTypeDefinition<T, P, I, O, U, L>): JobTypeDefinition<T, P, I, O, U, L> {
  return definition;
}

/** A worker input built and trusted by main: typed at compile time, not re-checked at run time. */
export function trusted<T>(): z.ZodType<T> {
  return z.custom<T>(() => true);
}

/** The one wording of a payload that fails its type's schema (enqueue and claim both say it). */
export function invalidPayloadMessage(type: string, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return `Invalid payload for ${type}: ${issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ')}`;
}
