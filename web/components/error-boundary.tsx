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
}

/**
 * Catches render errors below it, reports each one to the admin's error log, and shows a fallback
 * for its level. Component-level errors retry on their own (1 s, 2 s, 4 s ... up to 10 s apart) up
 * to MAX_RETRIES times; "Try Again" is there while retries remain.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, errorId: null, retryCount: 0, autoRetryAt: null };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(thrown: unknown): Partial<State> {
    return { error: toError(thrown), errorId: createErrorId() };
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
    // Browser back/forward leaves the broken screen: start afresh there. (The fallback's own
    // buttons reload or leave the page, so they need no such care.)
    window.addEventListener('popstate', this.resetAfterNavigation);
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
        : { error: null, errorId: null, retryCount: s.retryCount + 1, autoRetryAt: null },
    );
  };

  private readonly resetAfterNavigation = (): void => {
    if (!this.state.error) return;
    clearTimeout(this.retryTimer);
    this.setState({ error: null, errorId: null, retryCount: 0, autoRetryAt: null });
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

/** Splits "Title: sentence" into "Title:" and "sentence" so each can be styled; the text stays whole. */
function splitErrorText(text: string): [title: string, sentence: string] {
  const split = text.indexOf(': ');
  return [text.slice(0, split + 1), text.slice(split + 2)];
}

/** A heading whose text reads the whole message, styled as a title over its sentence. */
function ErrorHeading({ text }: { text: string }) {
  const [title, sentence] = splitErrorText(text);
  return (
    <h1>
      <span className="block text-2xl font-bold tracking-tight text-white">{title}</span>{' '}
      <span className="mt-2 block text-base font-normal text-slate-300">{sentence}</span>
    </h1>
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
  return (
    <div
      role="alert"
      className="dark flex min-h-screen items-center justify-center bg-[#060814] bg-[radial-gradient(ellipse_at_top,rgba(239,68,68,0.18),transparent_60%)] p-6 text-foreground"
    >
      <div className="grid w-full max-w-lg justify-items-center gap-6 rounded-2xl border border-white/10 bg-white/[0.04] p-8 text-center shadow-2xl backdrop-blur">
        <ErrorIcon />
        <ErrorHeading text={ERROR_TEXTS.critical} />
        <div className="flex flex-wrap justify-center gap-3">
          <Button onClick={reloadPage} className="bg-red-600 text-white hover:bg-red-500">
            <RefreshCw aria-hidden="true" />
            Reload Application
          </Button>
          <Button asChild variant="outline" className="border-white/15 hover:bg-white/10">
            <a href="/">
              <Home aria-hidden="true" />
              Go to Home
            </a>
          </Button>
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
  return (
    <div role="alert" className="dark flex min-h-[70vh] items-center justify-center p-6 text-foreground">
      <div className="grid w-full max-w-lg justify-items-center gap-6 rounded-2xl border border-white/10 bg-[#0b1020] p-8 text-center shadow-2xl">
        <ErrorIcon className="from-orange-500 to-red-600 shadow-orange-500/30" />
        <ErrorHeading text={ERROR_TEXTS.page} />
        <div className="flex flex-wrap justify-center gap-3">
          <Button onClick={onRetry} disabled={!canRetry}>
            <RotateCcw aria-hidden="true" />
            Try Again
          </Button>
          <Button asChild variant="outline" className="border-white/15 hover:bg-white/10">
            <a href="/">
              <Home aria-hidden="true" />
              Go to Home
            </a>
          </Button>
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
  const [title, sentence] = splitErrorText(ERROR_TEXTS.component);
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-red-500/40 bg-red-500/10 p-4 text-sm sm:flex-row sm:items-center"
    >
      <AlertTriangle className="h-5 w-5 shrink-0 text-red-400" aria-hidden="true" />
      <div className="flex-1">
        <p className="text-red-200">
          <strong className="font-semibold text-red-100">{title}</strong> {sentence}
        </p>
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
