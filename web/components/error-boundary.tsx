import { Component, type ReactNode } from 'react';
import type { ErrorLevel } from '../../common/error-report.ts';

interface Props {
  level: ErrorLevel;
  children: ReactNode;
}

/** Placeholder: the full three-level boundary (retry, reports) replaces this. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <div role="alert">{this.state.error.message}</div> : this.props.children;
  }
}
