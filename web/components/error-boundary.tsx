import { AlertTriangle, Home, RefreshCw, RotateCcw } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/cn.ts';
import type { ErrorLevel } from '../../common/error-report.ts';
import {
  buildErrorReport,
  createErrorId,
  MAX_RETRIES,
  retryDelayMs,
  sendErrorReport,
  toError,
} from './error-reporting.ts';
import { useDarkDocument } from './use-dark-document.ts';

/** Each level's message, whole, as the spec words it: title, colon, sentence. */
export const ERROR_TEXTS = {
  critical:
    'Critical System Error: A critical error has occurred that prevents the application from functioning.',
  page: "Page Error: This page encountered an error and couldn't load properly.",
  component: "Component Error: This component encountered an error and couldn't render properly.",
} as const satisfies Record<ErrorLevel, string>;

interface Props {
  /** critical: the whole app (full screen); page: one route; component: one widget, retried automatically. */
  level: ErrorLevel;
  children: ReactNode;
}

interface State {
  error: Error | null;
  errorId: string | null;
  /** Retries used so far (automatic or manual), out of MAX_RETRIES. */
  retryCount: number;
  /** When the scheduled automatic retry fires (component level), for the countdown text. */
  autoRetryAt: number | null;
  /** The address the error happened at: leaving it starts afresh. */
  errorHref: string | null;
}

/**
 * Catches render errors below it, reports each one to the admin's error log, and shows a fallback
 * for its level. Component-level errors retry on their own (1 s, 2 s, 4 s ... up to 10 s apart) up
 * to MAX_RETRIES times; "Try Again" is there while retries remain.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, errorId: null, retryCount: 0, autoRetryAt: null, errorHref: null };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(thrown: unknown): Partial<State> {
    return { error: toError(thrown), errorId: createErrorId(), errorHref: window.location.href };
  }

  override componentDidCatch(thrown: unknown, info: ErrorInfo): void {
    const { level } = this.props;
    const { errorId, retryCount } = this.state;
    sendErrorReport(
      buildErrorReport({
        errorId: errorId ?? createErrorId(),
        error: toError(thrown),
        componentStack: info.componentStack,
        level,
        retryCount,
      }),
    );
    if (level === 'component' && retryCount < MAX_RETRIES) this.scheduleAutoRetry(retryDelayMs(retryCount));
  }

  override componentDidMount(): void {
    // Leaving the broken address starts afresh. React keeps this instance when the router swaps
    // one route's page for another (same position, same type), so a navigation from outside the
    // fallback (the admin sidebar) is seen on the next render, and browser back/forward here.
    window.addEventListener('popstate', this.resetAfterNavigation);
  }

  override componentDidUpdate(): void {
    this.resetAfterNavigation();
  }

  override componentWillUnmount(): void {
    window.removeEventListener('popstate', this.resetAfterNavigation);
    clearTimeout(this.retryTimer);
  }

  private scheduleAutoRetry(delay: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(this.retry, delay);
    this.setState({ autoRetryAt: Date.now() + delay });
  }

  private readonly retry = (): void => {
    clearTimeout(this.retryTimer);
    this.setState((s) =>
      s.retryCount >= MAX_RETRIES
        ? null
        : { error: null, errorId: null, retryCount: s.retryCount + 1, autoRetryAt: null, errorHref: null },
    );
  };

  private readonly resetAfterNavigation = (): void => {
    const { error, errorHref } = this.state;
    if (!error || errorHref === window.location.href) return;
    clearTimeout(this.retryTimer);
    this.setState({ error: null, errorId: null, retryCount: 0, autoRetryAt: null, errorHref: null });
  };

  override render(): ReactNode {
    const { error, errorId, retryCount, autoRetryAt } = this.state;
    if (!error) return this.props.children;
    const canRetry = retryCount < MAX_RETRIES;
    switch (this.props.level) {
      case 'critical':
        return <CriticalErrorScreen errorId={errorId} />;
      case 'page':
        return (
          <PageErrorScreen
            errorId={errorId}
            retryCount={retryCount}
            canRetry={canRetry}
            onRetry={this.retry}
          />
        );
      case 'component':
        return (
          <ComponentErrorNotice
            retryCount={retryCount}
            canRetry={canRetry}
            autoRetrying={autoRetryAt !== null}
            onRetry={this.retry}
          />
        );
    }
  }
}

function reloadPage(): void {
  window.location.reload();
}

/**
 * The level's whole message as one text node (so it reads, copies and matches as one sentence),
 * with a line under it on what happens next.
 */
function ErrorHeading({ text, hint }: { text: string; hint: string }) {
  return (
    <div className="grid gap-2">
      <h1 className="text-balance text-xl font-semibold leading-snug text-white sm:text-2xl">{text}</h1>
      <p className="text-sm text-slate-400">{hint}</p>
    </div>
  );
}

/** Home as a plain link: a full page load, a fresh start for an app that may be in a bad state. */
function GoHomeButton() {
  return (
    <Button asChild variant="outline" className="border-white/15 hover:bg-white/10">
      <a href="/">
        <Home aria-hidden="true" />
        Go to Home
      </a>
    </Button>
  );
}

function ErrorIdLine({ errorId }: { errorId: string | null }) {
  if (!errorId) return null;
  return (
    <p className="text-xs text-slate-400">
      Error ID: <code className="rounded bg-white/10 px-1.5 py-0.5 font-mono text-slate-200">{errorId}</code>
    </p>
  );
}

function ErrorIcon({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        'flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-red-500 to-rose-700 shadow-lg shadow-red-500/30',
        className,
      )}
    >
      <AlertTriangle className="h-7 w-7 text-white" aria-hidden="true" />
    </div>
  );
}

/** Full screen: the app itself failed. Outside the router, so home is a plain link (a fresh start). */
function CriticalErrorScreen({ errorId }: { errorId: string | null }) {
  useDarkDocument();
  return (
    <div
      role="alert"
      className="dark flex min-h-screen items-center justify-center bg-[#060814] bg-[radial-gradient(ellipse_at_top,rgba(239,68,68,0.18),transparent_60%)] p-6 text-foreground"
    >
      <div className="grid w-full max-w-lg justify-items-center gap-6 rounded-2xl border border-white/10 bg-white/[0.04] p-8 text-center shadow-2xl backdrop-blur">
        <ErrorIcon />
        <ErrorHeading
          text={ERROR_TEXTS.critical}
          hint="Reload the application, or start again from the home page."
        />
        <div className="flex flex-wrap justify-center gap-3">
          <Button onClick={reloadPage} className="bg-red-600 text-white hover:bg-red-700">
            <RefreshCw aria-hidden="true" />
            Reload Application
          </Button>
          <GoHomeButton />
        </div>
        <ErrorIdLine errorId={errorId} />
      </div>
    </div>
  );
}

function PageErrorScreen({
  errorId,
  retryCount,
  canRetry,
  onRetry,
}: {
  errorId: string | null;
  retryCount: number;
  canRetry: boolean;
  onRetry: () => void;
}) {
  useDarkDocument();
  return (
    <div role="alert" className="dark flex min-h-[80vh] items-center justify-center p-6 text-foreground">
      <div className="grid w-full max-w-lg justify-items-center gap-6 rounded-2xl border border-white/10 bg-[#0b1020] p-8 text-center shadow-2xl">
        <ErrorIcon className="from-orange-500 to-red-600 shadow-orange-500/30" />
        <ErrorHeading
          text={ERROR_TEXTS.page}
          hint="Try again, or go back to the home page. If it keeps happening, quote the error ID to support."
        />
        <div className="flex flex-wrap justify-center gap-3">
          <Button onClick={onRetry} disabled={!canRetry}>
            <RotateCcw aria-hidden="true" />
            Try Again
          </Button>
          <GoHomeButton />
          <Button variant="outline" className="border-white/15 hover:bg-white/10" onClick={reloadPage}>
            <RefreshCw aria-hidden="true" />
            Reload Page
          </Button>
        </div>
        <div className="grid gap-1">
          <p className="text-sm text-slate-300">{`Retry attempts: ${retryCount}/${MAX_RETRIES}`}</p>
          <ErrorIdLine errorId={errorId} />
        </div>
      </div>
    </div>
  );
}

function ComponentErrorNotice({
  retryCount,
  canRetry,
  autoRetrying,
  onRetry,
}: {
  retryCount: number;
  canRetry: boolean;
  autoRetrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-red-500/40 bg-red-500/10 p-4 text-sm sm:flex-row sm:items-center"
    >
      <AlertTriangle className="h-5 w-5 shrink-0 text-red-400" aria-hidden="true" />
      <div className="flex-1">
        <p className="font-medium text-red-100">{ERROR_TEXTS.component}</p>
        <p className="mt-1 text-xs text-red-300/80">
          {`Retry attempts: ${retryCount}/${MAX_RETRIES}`}
          {autoRetrying && canRetry ? ' · retrying automatically...' : ''}
        </p>
      </div>
      <Button
        size="sm"
        variant="outline"
        className="border-red-400/40 text-red-100 hover:bg-red-500/20"
        onClick={onRetry}
        disabled={!canRetry}
      >
        <RotateCcw aria-hidden="true" />
        Try Again
      </Button>
    </div>
  );
}
