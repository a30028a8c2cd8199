import type { AlertSeverity, OperatorAlert } from '../../../common/notifications.ts';
import {
  DISCORD_LIMITS,
  type DiscordEmbed,
  type DiscordMessage,
  embedCharacters,
  truncate,
} from './discord-message.ts';

/*
 * What an alerts destination receives for an operator alert: a Discord embed coloured by severity
 * (red: down, stopped, disconnected; amber: degraded, failing, low; green: back), or JSON
 * `{type: 'alert', alert, destination, deliveryId}` (docs/notifications.md, "Operator alerts").
 */

export const ALERT_COLOURS: Record<AlertSeverity, number> = {
  critical: 0xe74c3c,
  warning: 0xf39c12,
  ok: 0x2ecc71,
};

/** The longest sentence an alert embed carries, so any one fits a message's 6,000 characters. */
const MESSAGE_MAX = 2_000;

/** The embed of one alert: its title, its sentence, when it was raised. */
export function alertEmbedOf(alert: OperatorAlert): DiscordEmbed {
  const embed: DiscordEmbed = {
    title: truncate(alert.title, DISCORD_LIMITS.title),
    description: truncate(alert.message, MESSAGE_MAX),
    color: ALERT_COLOURS[alert.severity] ?? ALERT_COLOURS.warning,
    fields: [],
    footer: { text: `Scanline · operator alert · ${alert.kind}` },
  };
  const time = new Date(alert.at);
  if (!Number.isNaN(time.getTime())) embed.timestamp = time.toISOString();
  return embed;
}

/** Alerts folded into messages of up to 10 embeds and 6,000 characters, in their order. */
export function foldAlertMessages<T>(
  items: T[],
  alertOf: (item: T) => OperatorAlert,
): Array<{ message: DiscordMessage; items: T[] }> {
  const messages: Array<{ message: DiscordMessage; items: T[] }> = [];
  let embeds: DiscordEmbed[] = [];
  let taken: T[] = [];
  let chars = 0;
  const close = () => {
    if (embeds.length > 0)
      messages.push({ message: { embeds, allowed_mentions: { parse: [] } }, items: taken });
    embeds = [];
    taken = [];
    chars = 0;
  };
  for (const item of items) {
    const embed = alertEmbedOf(alertOf(item));
    const size = embedCharacters(embed);
    if (embeds.length >= DISCORD_LIMITS.embedsPerMessage || chars + size > DISCORD_LIMITS.totalCharacters)
      close();
    embeds.push(embed);
    taken.push(item);
    chars += size;
  }
  close();
  return messages;
}

/** The body a 'json' alerts destination receives: one alert a request, keyed as a find's post is. */
export function alertJsonBodyOf(
  alert: OperatorAlert,
  destination: { id: number; name: string },
  deliveryId: string,
) {
  return {
    type: 'alert' as const,
    alert,
    destination: { id: destination.id, name: destination.name },
    deliveryId,
  };
}

/** The sample alert *Send test* posts to an alerts destination. */
export function sampleAlert(now: Date): OperatorAlert {
  return {
    kind: 'fleet',
    state: 'live',
    previous: 'live',
    severity: 'ok',
    title: 'Test alert (Send test)',
    message: 'Operator alerts reach this destination.',
    at: now.toISOString(),
  };
}
