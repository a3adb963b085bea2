/** What the preload exposes as `window.circa` in Electron: the contract's calls and events, nothing else. */
export interface CircaBridge {
  call(name: string, input: unknown): Promise<unknown>;
  /** Subscribes to pushed events; returns an unsubscribe function. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** The operating system (process.platform). */
  platform: string;
  /**
   * The path on this computer of a File from a drop (webUtils.getPathForFile); '' when it has none.
   * Only ever handed to `photos.import`, which main validates like any other path.
   */
  pathForFile(file: File): string;
}

export const IPC_CALL_CHANNEL = 'circa:call';
export const IPC_EVENT_CHANNEL = 'circa:event';
