/**
 * The `?` overlay: every key in the app (keymap.ts), grouped by where it works. Opened with `?`
 * outside text fields or with the sidebar's "Keyboard" button; Escape closes it.
 */
import { useState } from 'react';
import { Modal } from '../components/Modal';
import { useWindowKeys } from '../screens/useWindowKeys';
import { KEYMAP } from './keymap';

export function KeyboardHelpButton() {
  const [open, setOpen] = useState(false);
  useWindowKeys((e, key) => {
    if (key !== '?' || e.ctrlKey || e.metaKey || open) return;
    if ((e.target as HTMLElement | null)?.closest?.('dialog')) return;
    e.preventDefault();
    setOpen(true);
  });
  return (
    <>
      <button className="link-button keys-button" onClick={() => setOpen(true)} aria-keyshortcuts="?" data-testid="keys-button">
        Keyboard shortcuts (?)
      </button>
      {open && <KeyboardHelp onClose={() => setOpen(false)} />}
    </>
  );
}

function KeyboardHelp({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Keyboard" onClose={onClose} testId="keys-dialog">
      <div className="keys-scroll" tabIndex={0} role="region" aria-label="Keys">
        <table className="keys-table">
          <thead>
            <tr>
              <th scope="col">Where</th>
              <th scope="col">Key</th>
              <th scope="col">Does</th>
            </tr>
          </thead>
          <tbody>
            {KEYMAP.map((k) => (
              <tr key={`${k.where} ${k.keys}`}>
                <td className="keys-where">{k.where}</td>
                <td>
                  <kbd>{k.keys}</kbd>
                </td>
                <td>{k.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">Keys on the photo screen do nothing while a text field, a list or a menu has the focus.</p>
    </Modal>
  );
}
