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

// The defaults (DEFAULT_SCRIPTS_PAGE_CONFIG) live in public-defaults.ts, zod-free for the public bundle.

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

export const ScriptsPageConfigSchema = z
  .object({
    key: z.string().min(1).max(50).default('default'),
    headerTitle: z.string().max(200),
    headerSubtitle: z.string().max(1000),
    securityBadge: z.string().max(100),
    /** 1 shows the Back to Home button. */
    showBackButton: z.union([z.literal(0), z.literal(1)]),
    sections: z.array(ScriptsPageSectionSchema).max(50),
  })
  .meta({ id: 'ScriptsPageConfig' });

export type ScriptsPageButton = z.infer<typeof ScriptsPageButtonSchema>;
export type ScriptsPageSection = z.infer<typeof ScriptsPageSectionSchema>;
export type ScriptsPageConfig = z.infer<typeof ScriptsPageConfigSchema>;

/** GET /api/public/scripts-page-config, and the admin editor's reads and saves. */
export const ScriptsPageConfigResponseSchema = z
  .object({ config: ScriptsPageConfigSchema })
  .meta({ id: 'ScriptsPageConfigResponse' });
export type ScriptsPageConfigResponse = z.infer<typeof ScriptsPageConfigResponseSchema>;
