import { z } from 'zod';

export const SECTION_ICONS = [
  'gift',
  'crown',
  'star',
  'zap',
  'shield',
  'code',
  'download',
  'key',
  'lock',
  'rocket',
  'sparkles',
] as const;
export const BADGE_VARIANTS = ['default', 'secondary', 'destructive', 'outline'] as const;
export const ACCESS_INFO_VARIANTS = ['default', 'success', 'warning', 'info'] as const;
export const BUTTON_VARIANTS = ['default', 'destructive', 'outline', 'secondary', 'ghost', 'link'] as const;
export const DOWNLOAD_TYPES = ['file', 'script'] as const;

/** The free script the public page names by default (shipped in scripts/). */
export const FREE_SCRIPT_FILE = 'scanline-free.lua';

export const ScriptsPageButtonSchema = z.object({
  id: z.string().min(1).max(100),
  label: z.string().max(100),
  file: z.string().max(255),
  downloadType: z.enum(DOWNLOAD_TYPES),
  variant: z.enum(BUTTON_VARIANTS),
  visible: z.boolean().default(true),
  order: z.number().int().min(0).default(0),
});

export const ScriptsPageSectionSchema = z.object({
  id: z.string().min(1).max(100),
  title: z.string().max(200),
  description: z.string().max(2000),
  icon: z.enum(SECTION_ICONS),
  iconColor: z.string().max(200),
  order: z.number().int().min(0).default(0),
  visible: z.boolean().default(true),
  /** Plain text, or 'icon:text' to pick the bullet icon. */
  features: z.array(z.string().max(300)).max(50),
  buttons: z.array(ScriptsPageButtonSchema).max(20),
  badge: z.object({ text: z.string().max(60), variant: z.enum(BADGE_VARIANTS) }).optional(),
  accessInfo: z
    .object({
      title: z.string().max(200),
      description: z.string().max(1000),
      variant: z.enum(ACCESS_INFO_VARIANTS),
    })
    .optional(),
});

export const ScriptsPageConfigSchema = z.object({
  key: z.string().min(1).max(50).default('default'),
  headerTitle: z.string().max(200),
  headerSubtitle: z.string().max(1000),
  securityBadge: z.string().max(100),
  /** 1 shows the Back to Home button. */
  showBackButton: z.union([z.literal(0), z.literal(1)]),
  sections: z.array(ScriptsPageSectionSchema).max(50),
});

export type ScriptsPageButton = z.infer<typeof ScriptsPageButtonSchema>;
export type ScriptsPageSection = z.infer<typeof ScriptsPageSectionSchema>;
export type ScriptsPageConfig = z.infer<typeof ScriptsPageConfigSchema>;

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
      description: 'Every find at 10M/s and up, auto-join from 5M/s, advanced filtering and sorting.',
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
          label: 'Copy Loader',
          file: FREE_SCRIPT_FILE,
          downloadType: 'script',
          variant: 'default',
          visible: true,
          order: 0,
        },
      ],
      badge: { text: 'PREMIUM', variant: 'default' },
      accessInfo: {
        title: 'Premium access',
        description: 'Redeem your code in the in-game panel: premium activates for 24 hours on your device.',
        variant: 'info',
      },
    },
  ],
};

/** GET /api/public/scripts-page-config. */
export interface ScriptsPageConfigResponse {
  config: ScriptsPageConfig;
}
