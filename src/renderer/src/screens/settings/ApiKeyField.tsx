/**
 * The OpenAI-compatible backend's API key. Circa never shows a stored key (main never sends it):
 * this says whether one is there and where it comes from, and sets or clears it. It is saved on
 * its own, not with the settings form. How safely it is kept depends on the system (main reports
 * `storage`): the OS keychain, only obfuscated (Linux without a keyring), not at all, or — in
 * browser mode only — the CIRCA_AI_API_KEY environment variable.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';

export function ApiKeyField() {
  const status = useQuery('settings.apiKeyStatus', {});
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const s = status.data;

  const store = async (apiKey: string | null) => {
    setBusy(true);
    setMsg(undefined);
    const r = await client.call('settings.setApiKey', { apiKey });
    setBusy(false);
    if (!r.ok) return setMsg({ kind: 'error', text: r.error.message });
    setKey('');
    setMsg({
      kind: 'ok',
      text: apiKey ? `Key saved (${s?.storage === 'basic' ? 'obfuscated' : 'encrypted'}).` : 'Stored key removed.',
    });
    status.reload();
  };

  let state: React.ReactNode = '…';
  if (status.error) state = <span className="error-text">{status.error.message}</span>;
  else if (s?.source === 'environment') state = <span className="ok-text">Set by the CIRCA_AI_API_KEY environment variable</span>;
  else if (s?.source === 'encrypted')
    state = (
      <span className={s.hasApiKey ? 'ok-text' : 'warn-text'}>
        {s.hasApiKey ? 'A key is stored (encrypted)' : 'A key is stored but cannot be decrypted here: set it again'}
      </span>
    );
  else if (s) state = <span className="muted">No key stored</span>;

  return (
    <div className="api-key" data-testid="api-key">
      <div className="field">
        <span>API key</span>
        <span className="api-key-state" data-testid="api-key-state" role="status">
          {state}
        </span>
      </div>
      {s && !s.canStore && s.storage === 'unavailable' ? (
        <p className="field-note">
          This system offers Circa no secure storage for secrets, so a key cannot be saved here. Local servers (LM Studio,
          llama.cpp, vLLM) usually need no key.
        </p>
      ) : s && !s.canStore ? (
        <p className="field-note">
          In browser mode Circa cannot store a key safely: start it with the key in the{' '}
          <span className="mono">CIRCA_AI_API_KEY</span> environment variable instead. It is used for each request and never shown
          or logged. Local servers (LM Studio, llama.cpp, vLLM) usually need no key.
          {s.source === 'encrypted' && (
            <>
              {' '}
              <button type="button" className="link-button" onClick={() => void store(null)} disabled={busy}>
                Remove the key stored by the desktop app
              </button>
            </>
          )}
        </p>
      ) : (
        s && (
          <div className="field">
            <span />
            <div className="api-key-set">
              <input
                type="password"
                autoComplete="off"
                spellCheck={false}
                aria-label="New API key"
                placeholder={s.hasApiKey ? 'A new key replaces the stored one' : 'Paste the key'}
                value={key}
                onChange={(e) => setKey(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    if (key.trim()) void store(key.trim());
                  }
                }}
              />
              <button type="button" onClick={() => void store(key.trim())} disabled={busy || !key.trim()}>
                Save key
              </button>
              {s.source === 'encrypted' && (
                <button type="button" onClick={() => void store(null)} disabled={busy}>
                  Clear key
                </button>
              )}
            </div>
          </div>
        )
      )}
      {s?.storage === 'basic' && (
        <p className="field-note warn-text" data-testid="api-key-protection">
          No keyring (such as GNOME Keyring or KWallet) is running, so a saved key is only obfuscated, not protected by the system
          keychain: anyone who can read your library folder can recover it.
        </p>
      )}
      {s?.storage === 'keychain' && (
        <p className="field-note" data-testid="api-key-protection">
          A saved key is encrypted with your system&apos;s keychain.
        </p>
      )}
      {s?.source === 'environment' && s.canStore && (
        <p className="field-note">The environment variable takes precedence over a stored key.</p>
      )}
      {msg && (
        <p className={`flash flash-${msg.kind}`} role={msg.kind === 'error' ? 'alert' : 'status'}>
          {msg.text}
        </p>
      )}
    </div>
  );
}
