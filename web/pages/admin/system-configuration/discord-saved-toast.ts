import { listed } from '@/lib/plural.ts';
import type { DiscordSettingsView } from '../../../../common/discord.ts';

/** What the slash commands need before Discord can reach them, as the save toast names it. */
const NEEDED: Array<[keyof DiscordSettingsView, string]> = [
  ['applicationId', 'the application ID'],
  ['publicKey', 'the public key'],
  ['botToken', 'the bot token'],
];

/**
 * What a save of the Discord settings says, from the settings it left in effect: only a complete
 * set is one the commands use; a half-filled one is saved too, and says what is still missing.
 */
export function discordSavedToast(settings: DiscordSettingsView): { title: string; description: string } {
  const title = 'Discord Settings Saved';
  const missing = NEEDED.filter(([field]) => settings[field] === null).map(([, name]) => name);
  if (missing.length === 0) return { title, description: 'Commands use the new settings now.' };
  const one = missing.length === 1;
  return {
    title,
    description:
      `Not connected yet: ${listed(missing)} ${one ? 'is' : 'are'} missing. ` +
      `Until ${one ? 'it is' : 'they are'} saved, Discord's slash commands get no answer.`,
  };
}
