/** What the preload exposes as `window.circa` in Electron: the contract's calls and events, nothing else. */
export interface CircaBridge {
  call(name: string, input: unknown): Promise<unknown>;
  /** Subscribes to pushed events; returns an unsubscribe function. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Opens a photo's folder in the system file manager (Electron only). */
  platform: string;
}

export const IPC_CALL_CHANNEL = 'circa:call';
export const IPC_EVENT_CHANNEL = 'circa:event';
