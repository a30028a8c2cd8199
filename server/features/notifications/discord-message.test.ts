import { describe, expect, it } from 'vitest';
import {
  DISCORD_LIMITS,
  type DiscordMessageOptions,
  discordEmbedOf,
  embedCharacters,
  foldDiscordMessages,
  joinUrlOf,
  jsonBodyOf,
  type NotifiedFind,
} from './discord-message.ts';

function find(i: number, over: Partial<NotifiedFind> = {}): NotifiedFind {
  return {
    id: `f${i}`,
    seq: i,
    name: `Pet ${i}`,
    type: 'Secret',
    value: '$2.5M/s',
    numericValue: 2_500_000,
    count: 1,
    timestamp: '2026-11-25T10:00:00.000Z',
    placeid: '109983668079237',
    jobid: 'a1b2c3d4-0000-4000-8000-00000000000f',
    scannerId: 'scanner-1',
    botId: 'bot-7',
    ...over,
  };
}

const plain: DiscordMessageOptions = {
  includeJoinData: false,
  mentionRoleId: null,
  mentionFromValue: null,
  joinUrlTemplate: null,
};
const full: DiscordMessageOptions = {
  includeJoinData: true,
  mentionRoleId: '998877',
  mentionFromValue: 10_000_000,
  joinUrlTemplate: 'https://example.com/join?placeId={placeId}&gameInstanceId={jobId}',
};

function fieldsOf(f: NotifiedFind, options = full) {
  return Object.fromEntries(discordEmbedOf(f, options).fields.map((x) => [x.name, x.value]));
}

describe('the Discord embed of a find', () => {
  it('shows the pet as title, its value, the bot and the time; no join data unless asked', () => {
    const embed = discordEmbedOf(find(1), plain);
    expect(embed.title).toBe('Pet 1');
    expect(embed.timestamp).toBe('2026-11-25T10:00:00.000Z');
    expect(fieldsOf(find(1), plain)).toEqual({ Value: '$2.5M/s', Bot: 'bot-7' });
  });

  it('shows the player count when the find knows it', () => {
    expect(fieldsOf(find(1, { playing: 5, maxPlayers: 8 }), plain).Players).toBe('5/8');
  });

  it('gives the ids, the TeleportService snippet in a lua block and the join link', () => {
    const f = fieldsOf(find(1, { jobid: 'job id&x' }));
    expect(f.Place).toBe('109983668079237');
    expect(f.Job).toBe('job id&x');
    expect(f.Join).toBe(
      '```lua\ngame:GetService("TeleportService"):TeleportToPlaceInstance(109983668079237, "job id&x")\n```',
    );
    expect(f['Join link']).toBe(
      '[Join](https://example.com/join?placeId=109983668079237&gameInstanceId=job%20id%26x)',
    );
  });

  it('builds no join link from a template that is not https', () => {
    expect(joinUrlOf('javascript:alert({jobId})', '1', '2')).toBeNull();
    expect(joinUrlOf('http://example.com/{jobId}', '1', '2')).toBeNull();
  });

  it('cuts a long title and long fields to their limits', () => {
    const embed = discordEmbedOf(find(1, { name: 'N'.repeat(400), value: 'V'.repeat(2000) }), plain);
    expect(embed.title.length).toBe(DISCORD_LIMITS.title);
    expect(embed.fields[0]!.value.length).toBe(DISCORD_LIMITS.fieldValue);
  });
});

describe('folding a burst', () => {
  it('puts up to 10 finds in one message, in order, and splits the rest', () => {
    const finds = Array.from({ length: 23 }, (_, i) => find(i));
    const messages = foldDiscordMessages(finds, (f) => f, full);
    expect(messages.map((m) => m.items.length)).toEqual([10, 10, 3]);
    expect(messages.flatMap((m) => m.items.map((f) => f.seq))).toEqual(finds.map((f) => f.seq));
  });

  it('keeps every message within 6,000 characters over its embeds', () => {
    const finds = Array.from({ length: 12 }, (_, i) =>
      find(i, { name: 'N'.repeat(300), value: 'V'.repeat(1500) }),
    );
    const messages = foldDiscordMessages(finds, (f) => f, full);
    expect(messages.length).toBeGreaterThan(2);
    for (const m of messages) {
      const total = m.message.embeds.reduce((n, e) => n + embedCharacters(e), 0);
      expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.totalCharacters);
      for (const e of m.message.embeds) expect(e.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    }
    expect(messages.reduce((n, m) => n + m.items.length, 0)).toBe(12);
  });

  it('mentions the role only in a message holding a find at or above the mention value', () => {
    const messages = foldDiscordMessages(
      [find(1, { numericValue: 1_000_000 }), ...Array.from({ length: 10 }, (_, i) => find(i + 2))],
      (f) => f,
      full,
    );
    expect(messages.every((m) => m.message.content === undefined)).toBe(true);
    const [loud] = foldDiscordMessages([find(1, { numericValue: 10_000_000 })], (f) => f, full);
    expect(loud!.message.content).toBe('<@&998877>');
    expect(loud!.message.allowed_mentions).toEqual({ parse: [], roles: ['998877'] });
  });
});

it('a json destination gets the find, who it is for and the delivery id; a late one says how late', () => {
  expect(jsonBodyOf(find(3), { id: 4, name: 'Bridge' }, 'scanline-delivery-9')).toEqual({
    type: 'find',
    find: find(3),
    destination: { id: 4, name: 'Bridge' },
    deliveryId: 'scanline-delivery-9',
  });
  expect(jsonBodyOf(find(3), { id: 4, name: 'Bridge' }, 'scanline-delivery-9', 125.7).late).toEqual({
    ageSeconds: 125,
  });
});
