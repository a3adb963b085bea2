/** The line under a form that says what became of the last action: a status, or an alert for a problem. */
export interface FlashMessage {
  kind: 'ok' | 'error';
  text: string;
}

export function StatusFlash({ message }: { message: FlashMessage | undefined }) {
  if (!message) return null;
  return (
    <span className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
      {message.text}
    </span>
  );
}
