/**
 * Leaves this page for `url` (another site, such as a payment checkout), as a link would. Its own
 * module so component tests can stand in for it: jsdom cannot navigate, nor can its location be replaced.
 */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}
