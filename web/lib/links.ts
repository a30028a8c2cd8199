/** The community chat invite: where buyers open a ticket with their transaction hash. */
export const COMMUNITY_INVITE_URL = 'https://discord.gg/scanline';
