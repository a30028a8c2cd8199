import { useMutation } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Copy, Download, Info, Loader2 } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { cn } from '@/lib/cn.ts';
import { toast } from '@/lib/toast.ts';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import type { ScriptsPageButton, ScriptsPageSection } from '../../../common/scripts-page.ts';
import { glassCard } from '../public-shell.tsx';
import { parseFeature, SECTION_ICON_COMPONENTS, visibleInOrder } from './scripts-content.ts';

export const DOWNLOAD_FILE_ERROR = 'Failed to download file';
/** The failure toast's description; {name} is the file. */
export const DOWNLOAD_FAILED_DESCRIPTION = 'Failed to download {name}. Please try again.';

/** Fetches a hosted script as a blob and hands it to the browser as a download named after the file. */
export async function downloadHostedFile(file: string): Promise<void> {
  const res = await fetch(`/api/hosted-scripts/${encodeURIComponent(file)}`, { credentials: 'include' });
  if (!res.ok) throw new Error(DOWNLOAD_FILE_ERROR);
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoke on the next turn: the click has handed the blob to the download by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

const ACCESS_INFO_STYLES = {
  default: { className: 'border-white/15 bg-white/[0.04] text-slate-200', icon: Info },
  success: { className: 'border-emerald-400/30 bg-emerald-500/10 text-emerald-200', icon: CheckCircle2 },
  warning: { className: 'border-amber-400/30 bg-amber-500/10 text-amber-200', icon: AlertTriangle },
  info: { className: 'border-sky-400/30 bg-sky-500/10 text-sky-200', icon: Info },
} as const;

/** The hosted file a button downloads, or whose loader it copies (the free scanner when none is set). */
export function buttonFileName(button: Pick<ScriptsPageButton, 'file'>): string {
  return button.file || FREE_SCRIPT_FILE;
}

/** What would go wrong for a visitor pressing a button (the editor's preview marks it), or null. */
export type ButtonProblemOf = (button: ScriptsPageButton) => string | null;

/** One configured section of the scripts page: icon, title, badge, access note, features, buttons. */
export function ScriptSection({
  section,
  buttonProblem,
}: {
  section: ScriptsPageSection;
  /** Only the admin's preview passes it: each button it names a problem for is marked with it. */
  buttonProblem?: ButtonProblemOf;
}) {
  const Icon = SECTION_ICON_COMPONENTS[section.icon] ?? SECTION_ICON_COMPONENTS.code;
  const iconColor = section.iconColor?.includes('from-') ? section.iconColor : 'from-blue-500 to-cyan-600';
  const buttons = visibleInOrder(section.buttons);
  const access = section.accessInfo;
  const accessStyle = access ? (ACCESS_INFO_STYLES[access.variant] ?? ACCESS_INFO_STYLES.default) : null;

  return (
    <section aria-labelledby={`section-${section.id}`} className="flex flex-col">
      <Card className={cn(glassCard, 'flex flex-1 flex-col')}>
        <CardHeader>
          <div className="flex items-start gap-4">
            <div
              className={cn(
                'flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-primary bg-gradient-to-br shadow-lg',
                iconColor,
              )}
            >
              <Icon className="h-6 w-6 text-white" aria-hidden="true" />
            </div>
            <div className="grid min-w-0 flex-1 gap-1.5">
              <div className="flex flex-wrap items-center gap-2">
                <CardTitle id={`section-${section.id}`} className="text-xl wrap-anywhere">
                  {section.title}
                </CardTitle>
                {section.badge?.text && <Badge variant={section.badge.variant}>{section.badge.text}</Badge>}
              </div>
              <CardDescription className="text-slate-300">{section.description}</CardDescription>
            </div>
          </div>
        </CardHeader>
        <CardContent className="flex flex-1 flex-col gap-5">
          {access && accessStyle && (
            <div className={cn('flex gap-3 rounded-lg border p-3 text-sm', accessStyle.className)}>
              <accessStyle.icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <div>
                <p className="font-semibold">{access.title}</p>
                <p className="opacity-90">{access.description}</p>
              </div>
            </div>
          )}
          {section.features?.length > 0 && (
            <ul className="grid gap-2.5">
              {section.features.map((feature, index) => {
                const { icon, text } = parseFeature(feature);
                const Bullet = icon ? SECTION_ICON_COMPONENTS[icon] : CheckCircle2;
                return (
                  // Features are plain strings that may repeat, so their position is part of the key.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  <li key={`${index}-${feature}`} className="flex items-start gap-2.5 text-sm text-slate-200">
                    <Bullet className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
                    <span>{text}</span>
                  </li>
                );
              })}
            </ul>
          )}
          {buttons.length > 0 && (
            <div className="mt-auto flex flex-wrap gap-3 pt-1">
              {buttons.map((button) => (
                <SectionButton key={button.id} button={button} problem={buttonProblem?.(button) ?? null} />
              ))}
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function SectionButton({ button, problem }: { button: ScriptsPageButton; problem: string | null }) {
  const file = buttonFileName(button);
  const problemId = useId();
  const download = useMutation({
    mutationFn: () => downloadHostedFile(file),
    onSuccess: () => toast({ title: 'Download Started!', description: `${file} is downloading.` }),
    onError: () =>
      toast({
        title: 'Download Failed',
        description: DOWNLOAD_FAILED_DESCRIPTION.replace('{name}', file),
        variant: 'destructive',
      }),
  });

  const look = {
    variant: button.variant,
    className: cn(
      'min-w-36 flex-1 sm:flex-none',
      problem && 'ring-2 ring-amber-400 ring-offset-2 ring-offset-background',
    ),
    'aria-describedby': problem ? problemId : undefined,
  };
  const pressable =
    button.downloadType === 'script' ? (
      <Button
        {...look}
        onClick={() => {
          void copyToClipboard(
            buildLoaderSnippet(window.location.origin, file),
            'Paste the loader into your executor and run it.',
          );
        }}
      >
        <Copy aria-hidden="true" />
        {button.label}
      </Button>
    ) : (
      <Button {...look} disabled={download.isPending} onClick={() => download.mutate()}>
        {download.isPending ? (
          <Loader2 className="animate-spin" aria-hidden="true" />
        ) : (
          <Download aria-hidden="true" />
        )}
        {button.label}
      </Button>
    );
  if (!problem) return pressable;
  return (
    <div className="flex min-w-36 flex-1 flex-col gap-1.5 sm:flex-none">
      {pressable}
      <p id={problemId} className="flex max-w-xs gap-1.5 text-xs text-amber-300">
        <AlertTriangle className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
        <span>{problem}</span>
      </p>
    </div>
  );
}
