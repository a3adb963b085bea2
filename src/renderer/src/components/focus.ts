/**
 * Where the keyboard focus goes when what held it goes away (a dialog closes, a screen opens):
 * never <body>, where keys reach nothing and a screen reader starts again at the top.
 */

/** Focus back on `opener`, or on the current screen's heading when the opener has left the page. */
export function restoreFocus(opener: HTMLElement | null): void {
  if (opener?.isConnected && opener !== document.body) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  focusScreenHeading();
}

/** The visible screen's main heading takes the focus (screens render their h1 with tabIndex -1). */
export function focusScreenHeading(): void {
  const heading = Array.from(document.querySelectorAll<HTMLElement>('#content h1')).find((h) => !h.closest('[inert]'));
  heading?.focus();
}
