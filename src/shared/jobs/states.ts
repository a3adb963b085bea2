/** Job states; the names are part of the product (the Jobs page, the CLI, the audit ledger). */
export const JOB_STATUSES = ['queued', 'running', 'success', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ACTIVE_STATUSES = ['queued', 'running'] as const satisfies readonly JobStatus[];
export const TERMINAL_STATUSES = ['success', 'failed', 'cancelled'] as const satisfies readonly JobStatus[];

export function isTerminal(status: JobStatus): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}
