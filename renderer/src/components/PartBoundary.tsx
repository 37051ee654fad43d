import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the part is, in the words shown when it fails: "this page", "the import". */
  what: string;
  /** Where the part's waiting and failure show (the import: in its dialog); a page shows them as a page. */
  frame?: (content: ReactNode) => ReactNode;
  children: ReactNode;
}

/**
 * A part of the dashboard (a page, the import dialog) that loads its code when first shown, and
 * that cannot take the rest down with it: while its code loads it says so, and if the code cannot
 * be fetched (the server was restarted with a newer build, or stopped) or the part fails as it draws,
 * it says what failed and offers a reload, while the top bar and the other pages keep working.
 * Keyed by the caller (the route), so moving elsewhere starts afresh.
 */
export class PartBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Agency Desk: ${this.props.what} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { what, frame, children } = this.props;
    const { error } = this.state;
    if (error === null) {
      const waiting = <p className="page-loading">Loading {what}…</p>;
      return <Suspense fallback={frame ? frame(waiting) : waiting}>{children}</Suspense>;
    }
    const Title = frame ? 'strong' : 'h1';
    const failure = (
      <div className="notice notice-error part-failed" role="alert">
        <Title>{capitalized(what)} could not be shown</Title>
        <p>
          {loadFailure(error)
            ? 'Its part of the dashboard could not be fetched from the server: the server may have stopped, or been updated since this window opened.'
            : error.message}
        </p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload the dashboard
        </button>
      </div>
    );
    return frame ? frame(failure) : failure;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A module's code that never arrived: each browser words a failed dynamic import its own way. */
function loadFailure(error: Error): boolean {
  return /dynamically imported module|importing a module script failed|error loading dynamically/i.test(error.message);
}
