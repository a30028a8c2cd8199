import type { ScriptsPageConfig } from './scripts-page.ts';

/*
 * Defaults the public pages need at runtime, in a module without zod: importing a value from
 * common/system.ts or common/scripts-page.ts pulls their schemas, and with them zod (~20 KB gzip),
 * into the landing page's bundle. Those files re-export these, so each value is defined once.
 */

/**
 * The public scripts page's config, and its query key: the admin's scripts page editor drops the
 * public page's cached copy by this key after a save.
 */
export const PUBLIC_SCRIPTS_PAGE_CONFIG_URL = '/api/public/scripts-page-config';

/** Premium access price, in USD, paid in cryptocurrency. */
export const PREMIUM_PRICE_USD = 40;

/** Total slots when nothing is configured yet. */
export const DEFAULT_TOTAL_SLOTS = 30;

/** The free script the public page names by default (shipped in scripts/). */
export const FREE_SCRIPT_FILE = 'scanline-free.lua';

/** The shipped "universal" script: the scanner plus the in-game redemption panel premium starts from. */
export const UNIVERSAL_SCRIPT_FILE = 'scanline-universal.lua';

/** The shipped PREMIUM scanner the universal script loads with a redeemed key. */
export const PREMIUM_SCRIPT_FILE = 'scanline-premium.lua';

/** The shipped panel chunk (filters, sort, rows) the premium scanner loads through the loader. */
export const PREMIUM_PANEL_FILE = 'scanline-panel.lua';

/** What a fresh install shows on /scripts, and what "Reset to Default" restores. */
export const DEFAULT_SCRIPTS_PAGE_CONFIG: ScriptsPageConfig = {
  key: 'default',
  headerTitle: 'Scanline Scripts',
  headerSubtitle:
    'Download the scanner script for your executor. Free to start; premium unlocks every high-value find.',
  securityBadge: 'Verified & Secure',
  showBackButton: 1,
  sections: [
    {
      id: 'free-script',
      title: 'Free Scanner',
      description: 'The scanner with live finds below 10M/s. Works in every supported executor.',
      icon: 'gift',
      iconColor: 'from-green-500 to-emerald-600',
      order: 0,
      visible: true,
      features: [
        'zap:Live pet finds below 10M/s',
        'shield:Keyless, nothing to install',
        'download:Always the latest version',
      ],
      buttons: [
        {
          id: 'free-copy',
          label: 'Copy Loader',
          file: FREE_SCRIPT_FILE,
          downloadType: 'script',
          variant: 'default',
          visible: true,
          order: 0,
        },
        {
          id: 'free-download',
          label: 'Download .lua',
          file: FREE_SCRIPT_FILE,
          downloadType: 'file',
          variant: 'outline',
          visible: true,
          order: 1,
        },
      ],
      badge: { text: 'FREE', variant: 'secondary' },
    },
    {
      id: 'premium-script',
      title: 'Premium Scanner',
      description:
        'Every find at 10M/s and up, auto-join from 5M/s, advanced filtering and sorting. It starts from the universal script (scanline-universal.lua): the free scanner with the redeem panel.',
      icon: 'crown',
      iconColor: 'from-yellow-500 to-orange-600',
      order: 1,
      visible: true,
      features: [
        'crown:Pets at 10M/s and up',
        'rocket:Auto-join for pets at 5M/s and up',
        'sparkles:Advanced filtering and sorting',
        'star:Priority support and updates',
      ],
      buttons: [
        {
          id: 'premium-copy',
          label: 'Copy Universal Loader',
          file: UNIVERSAL_SCRIPT_FILE,
          downloadType: 'script',
          variant: 'default',
          visible: true,
          order: 0,
        },
      ],
      badge: { text: 'PREMIUM', variant: 'default' },
      accessInfo: {
        title: 'Premium access',
        description:
          'Run the universal script, then redeem your code in its in-game panel: premium activates for 24 hours on your device.',
        variant: 'info',
      },
    },
  ],
};

/** GET /api/public/scripts-page-config. */
export interface ScriptsPageConfigResponse {
  config: ScriptsPageConfig;
}
