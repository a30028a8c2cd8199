import type { PetDiscovery } from '../../../common/fleet.ts';

/*
 * What a destination receives: Discord messages of embeds (one per find, a burst folded into as few
 * messages as Discord's limits allow), or the find as JSON for a generic webhook.
 */

/** A find as the outbox holds it; the server's player count rides along when it was known. */
export type NotifiedFind = PetDiscovery & { playing?: number | null; maxPlayers?: number | null };

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface DiscordEmbed {
  title: string;
  description?: string;
  url?: string;
  color: number;
  fields: DiscordEmbedField[];
  timestamp?: string;
  footer?: { text: string };
}

export interface DiscordMessage {
  content?: string;
  embeds: DiscordEmbed[];
  allowed_mentions: { parse: []; roles?: string[] };
}

export interface DiscordMessageOptions {
  includeJoinData: boolean;
  mentionRoleId: string | null;
  mentionFromValue: number | null;
  /** NOTIFY_JOIN_URL_TEMPLATE: https URL with {placeId} and {jobId}; null when unset. */
  joinUrlTemplate: string | null;
}

/** Discord's documented limits for a message's embeds. */
export const DISCORD_LIMITS = {
  embedsPerMessage: 10,
  totalCharacters: 6_000,
  fields: 25,
  title: 256,
  fieldName: 256,
  fieldValue: 1_024,
  description: 4_096,
  footer: 2_048,
  content: 2_000,
} as const;

const COLOR_DEFAULT = 0x5865f2;
const COLOR_MENTION = 0xf1c40f;

/** Cuts text to a limit, marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The Lua line that joins the find's server (the code block the embed shows). */
export function joinSnippet(placeId: string, jobId: string): string {
  return `game:GetService("TeleportService"):TeleportToPlaceInstance(${placeId}, ${JSON.stringify(jobId)})`;
}

/** The template with {placeId} and {jobId} replaced by the URL-encoded ids; null unless https. */
export function joinUrlOf(template: string | null, placeId: string, jobId: string): string | null {
  if (!template) return null;
  const built = template
    .replaceAll('{placeId}', encodeURIComponent(placeId))
    .replaceAll('{jobId}', encodeURIComponent(jobId));
  try {
    // Discord shows only http(s) links; the setting asks for https.
    return new URL(built).protocol === 'https:' ? built : null;
  } catch {
    return null;
  }
}

function mentions(find: NotifiedFind, options: DiscordMessageOptions): boolean {
  return (
    options.mentionRoleId !== null &&
    options.mentionFromValue !== null &&
    find.numericValue >= options.mentionFromValue
  );
}

/** An age as a reader says it: 45 s, 2 min, 3 h. */
export function ageText(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3_600)} h`;
}

/**
 * The embed of one find. `lateAgeSeconds`: the find is older than its destination's maximum age and
 * posted anyway (late mode 'mark'): its title says so, with its age.
 */
export function discordEmbedOf(
  find: NotifiedFind,
  options: DiscordMessageOptions,
  lateAgeSeconds: number | null = null,
): DiscordEmbed {
  const field = (name: string, value: string, inline = true): DiscordEmbedField => ({
    name: truncate(name, DISCORD_LIMITS.fieldName),
    value: truncate(value || '-', DISCORD_LIMITS.fieldValue),
    inline,
  });
  const fields: DiscordEmbedField[] = [field('Value', find.value)];
  if (find.count > 1) fields.push(field('Count', String(find.count)));
  if (typeof find.playing === 'number') {
    fields.push(
      field(
        'Players',
        typeof find.maxPlayers === 'number' ? `${find.playing}/${find.maxPlayers}` : `${find.playing}`,
      ),
    );
  }
  fields.push(field('Bot', find.botId));
  let url: string | undefined;
  if (options.includeJoinData && find.jobid) {
    fields.push(field('Place', find.placeid), field('Job', find.jobid, false));
    // A snippet cut inside its code block would not run: keep it whole or leave it out.
    const block = `\`\`\`lua\n${joinSnippet(find.placeid, find.jobid)}\n\`\`\``;
    if (block.length <= DISCORD_LIMITS.fieldValue) fields.push({ name: 'Join', value: block, inline: false });
    const link = joinUrlOf(options.joinUrlTemplate, find.placeid, find.jobid);
    if (link && link.length <= DISCORD_LIMITS.fieldValue - 8) {
      url = link;
      fields.push({ name: 'Join link', value: `[Join](${link})`, inline: false });
    }
  }
  const embed: DiscordEmbed = {
    title: truncate(
      lateAgeSeconds === null
        ? find.name || 'Pet'
        : `Late (found ${ageText(lateAgeSeconds)} ago): ${find.name || 'Pet'}`,
      DISCORD_LIMITS.title,
    ),
    color: mentions(find, options) ? COLOR_MENTION : COLOR_DEFAULT,
    fields: fields.slice(0, DISCORD_LIMITS.fields),
    // The find's number: which find this is, when a reader (or a test) compares posts with the feed.
    footer: { text: truncate(`Scanline · ${find.scannerId} · #${find.seq}`, DISCORD_LIMITS.footer) },
  };
  if (url) embed.url = url;
  const time = new Date(find.timestamp);
  if (!Number.isNaN(time.getTime())) embed.timestamp = time.toISOString();
  return embed;
}

/** Characters Discord counts toward a message's 6,000: title, description, fields, footer, author. */
export function embedCharacters(embed: DiscordEmbed): number {
  let n = embed.title.length + (embed.description?.length ?? 0) + (embed.footer?.text.length ?? 0);
  for (const f of embed.fields) n += f.name.length + f.value.length;
  return n;
}

/** An embed made to fit alone in a message: the longest fields are cut until it does. */
function fitAlone(embed: DiscordEmbed): DiscordEmbed {
  const fitted = { ...embed, fields: embed.fields.map((f) => ({ ...f })) };
  while (embedCharacters(fitted) > DISCORD_LIMITS.totalCharacters) {
    const over = embedCharacters(fitted) - DISCORD_LIMITS.totalCharacters;
    const longest = fitted.fields.reduce((a, b) => (b.value.length > a.value.length ? b : a));
    longest.value = truncate(longest.value, Math.max(1, longest.value.length - over));
  }
  return fitted;
}

/** A message to post and the finds it carries (marked sent together once Discord accepts it). */
export interface FoldedMessage<T> {
  message: DiscordMessage;
  items: T[];
}

/**
 * Folds a burst into as few messages as Discord's limits allow: up to 10 embeds and 6,000
 * characters each, in the finds' order. Items carry each find with whatever the caller needs back
 * (the outbox row).
 */
export function foldDiscordMessages<T>(
  items: T[],
  findOf: (item: T) => NotifiedFind,
  options: DiscordMessageOptions,
  lateAgeOf: (item: T) => number | null = () => null,
): FoldedMessage<T>[] {
  const messages: FoldedMessage<T>[] = [];
  let current: { embeds: DiscordEmbed[]; items: T[]; chars: number; mention: boolean } | null = null;
  const close = () => {
    if (!current) return;
    const message: DiscordMessage = { embeds: current.embeds, allowed_mentions: { parse: [] } };
    if (current.mention && options.mentionRoleId) {
      message.content = `<@&${options.mentionRoleId}>`;
      message.allowed_mentions = { parse: [], roles: [options.mentionRoleId] };
    }
    messages.push({ message, items: current.items });
    current = null;
  };
  for (const item of items) {
    const find = findOf(item);
    const embed = fitAlone(discordEmbedOf(find, options, lateAgeOf(item)));
    const chars = embedCharacters(embed);
    if (
      current &&
      (current.embeds.length >= DISCORD_LIMITS.embedsPerMessage ||
        current.chars + chars > DISCORD_LIMITS.totalCharacters)
    ) {
      close();
    }
    current ??= { embeds: [], items: [], chars: 0, mention: false };
    current.embeds.push(embed);
    current.items.push(item);
    current.chars += chars;
    current.mention ||= mentions(find, options);
  }
  close();
  return messages;
}

/**
 * The body a 'json' destination receives: one find per request (each marked sent on its own 2xx).
 * `deliveryId` is the same on every try of one delivery (also sent as the Idempotency-Key header), so
 * a receiver that got a post whose answer came too late can drop the repeat. `late` is set on a find
 * posted past its destination's maximum age (late mode 'mark').
 */
export function jsonBodyOf(
  find: NotifiedFind,
  destination: { id: number; name: string },
  deliveryId: string,
  lateAgeSeconds: number | null = null,
) {
  return {
    // Beside alerts' `type: 'alert'` (alert-message.ts), so one receiver can take both.
    type: 'find' as const,
    find,
    destination: { id: destination.id, name: destination.name },
    deliveryId,
    ...(lateAgeSeconds === null ? {} : { late: { ageSeconds: Math.floor(lateAgeSeconds) } }),
  };
}

/** The sample find the *Send test* button posts. */
export function sampleFind(now: Date): NotifiedFind {
  return {
    id: 'test',
    seq: 0,
    name: 'Test pet (Send test)',
    type: 'Test',
    value: '$1.5M/s',
    numericValue: 1_500_000,
    count: 1,
    timestamp: now.toISOString(),
    placeid: '109983668079237',
    jobid: '00000000-0000-4000-8000-000000000000',
    scannerId: 'scanline-test',
    botId: 'test-bot',
  };
}
