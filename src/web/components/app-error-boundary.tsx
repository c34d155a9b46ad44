/**
 * Last line of defence for the route tree: a page that throws while rendering, or a page chunk
 * that fails to load (typically an open tab after a new release replaced the hashed files),
 * shows a way forward instead of a blank screen.
 */
import { AlertTriangle, RotateCw } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './ui/button';

interface State {
  error: Error | null;
}

interface Props {
  children: ReactNode;
  /** A change (the path, say) clears the error, so navigating away recovers. */
  resetKey?: string;
}

export class AppErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="flex min-h-screen items-center justify-center px-4" role="alert">
        <div className="flex max-w-md flex-col items-center text-center">
          <div className="mb-5 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <AlertTriangle className="size-6" aria-hidden="true" />
          </div>
          <h1 className="font-semibold text-xl">Something went wrong</h1>
          <p className="mt-2 text-muted-foreground text-sm">
            This page could not be shown. Reloading usually fixes it, for example after an update.
          </p>
          <Button className="mt-6" onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" />
            Reload page
          </Button>
        </div>
      </main>
    );
  }
}
