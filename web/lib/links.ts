/*
 * The community chat invite, where buyers open a ticket with their transaction hash, is a System
 * Configuration setting (communityInviteUrl, served in the purchase info); it is not fixed here.
 * Until the operator sets it, the pages say how to reach support instead.
 */

/** What the chat card and the ticket step say while no invite link is set. */
export const NO_INVITE_TEXTS = {
  title: 'The community chat link is not set up yet',
  ticket: 'Contact the seller where you found this page to create a ticket and give us the transaction hash.',
  help: 'Contact the seller where you found this page for help and announcements.',
} as const;

/** The invite link when the server names one, else null (loading, failed, or not set). */
export function communityInviteUrl(info: { communityInviteUrl?: string | null } | undefined): string | null {
  const url = info?.communityInviteUrl;
  return typeof url === 'string' && url.startsWith('https://') ? url : null;
}
