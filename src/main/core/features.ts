/**
 * Every feature room of main, listed once. Each registers itself (its `feature.ts`): the contract
 * calls it answers and the main halves of its job types. Here they are joined: a contract call or
 * a product job type that no room registers is a compile error, one registered twice a startup
 * error. The worker's halves are listed in src/worker/handlers/index.ts.
 */
import type { Handlers } from '../ipc/dispatcher';
import type { ProductHalves } from '../jobs/registry';
import { settingsFeature } from '../settings/feature';
import { photosFeature } from '../photos/feature';
import { evidenceFeature } from '../evidence/feature';
import { historyFeature } from '../history/feature';
import { datingFeature } from '../dating/feature';
import { duplicatesFeature } from '../duplicates/feature';
import { backupFeature } from '../backup/feature';
import { exportFeature } from '../export/feature';
import { runtimeCalls } from './runtime-calls';
import type { CoreServices } from './services';

const FEATURES = [
  settingsFeature,
  photosFeature,
  evidenceFeature,
  historyFeature,
  datingFeature,
  duplicatesFeature,
  backupFeature,
  exportFeature,
] as const;

type Feature = (typeof FEATURES)[number];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Registered<K extends string, F = Feature> = UnionToIntersection<
  F extends { [P in K]: (deps: never) => infer R } ? R : never
>;
/** What the job types' main halves need: the union of what each room's `jobs` asks for. */
export type ProductHalvesDeps = UnionToIntersection<JobDepsOf<Feature>>;
type JobDepsOf<F> = F extends { jobs: (deps: infer D) => unknown } ? D : never;

/** Every contract call's handler: the runtime's own and each room's. */
export function allCalls(core: CoreServices): Handlers {
  const joined: Registered<'calls'> & ReturnType<typeof runtimeCalls> = join('contract call', [
    runtimeCalls(core),
    ...FEATURES.map((f) => f.calls(core)),
  ]);
  return joined;
}

/** Main's half of every product job type (the registry pairs them with their definitions). */
export function productMainHalves(deps: ProductHalvesDeps): ProductHalves {
  const joined: Registered<'jobs'> = join(
    'job type',
    FEATURES.map((f) => ('jobs' in f ? f.jobs(deps) : {})),
  );
  return joined;
}

/** One object of every room's entries; a name two rooms register is a mistake found at startup. */
function join<T>(what: string, parts: object[]): T {
  const out: Record<string, unknown> = {};
  for (const part of parts)
    for (const [name, entry] of Object.entries(part)) {
      if (name in out) throw new Error(`The ${what} ${name} is registered by two feature rooms`);
      out[name] = entry;
    }
  return out as T;
}
