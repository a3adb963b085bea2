/**
 * The preload exposes exactly the contract: a `call` that only forwards known call names and an
 * event subscription that only delivers known events. `ipcRenderer` itself never leaves here.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { CALL_NAMES, EVENT_NAMES } from '../shared/contract';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CircaBridge } from '../shared/bridge';

const allowedCalls = new Set<string>(CALL_NAMES);
const allowedEvents = new Set<string>(EVENT_NAMES);

const bridge: CircaBridge = {
  call(name, input) {
    if (typeof name !== 'string' || !allowedCalls.has(name)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_call', message: `Unknown call ${String(name)}` } });
    }
    return ipcRenderer.invoke(IPC_CALL_CHANNEL, name, input);
  },
  onEvent(listener) {
    const handler = (_e: unknown, event: string, payload: unknown) => {
      if (allowedEvents.has(event)) listener(event, payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
  platform: process.platform,
  pathForFile(file) {
    try {
      return webUtils.getPathForFile(file);
    } catch {
      return '';
    }
  },
};

contextBridge.exposeInMainWorld('circa', bridge);
