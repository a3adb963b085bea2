/**
 * The jobs whose rows changed, told once per microtask: a cycle that commits a batch and claims
 * the next reports them together instead of one event per job.
 */
export class ChangedJobs {
  private ids = new Set<number>();

  constructor(private readonly tell?: (ids: number[]) => void) {}

  add(id: number): void {
    if (!this.tell) return;
    const first = this.ids.size === 0;
    this.ids.add(id);
    if (!first) return;
    queueMicrotask(() => {
      const ids = [...this.ids];
      this.ids.clear();
      this.tell?.(ids);
    });
  }
}
