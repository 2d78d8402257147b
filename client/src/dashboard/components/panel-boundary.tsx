// Keeps a panel's failure inside the panel: one that throws while rendering (or whose chunk
// cannot load) shows the spec's 'Something went wrong' under its title, the error goes to the
// console, and the other panels carry on.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { SOMETHING_WENT_WRONG } from '../messages';

/** Props of [`PanelBoundary`]. */
interface PanelBoundaryProps {
  /** The panel's heading, kept when it fails. */
  title: string;
  children: ReactNode;
}

/** An error boundary around one panel. */
export class PanelBoundary extends Component<PanelBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`Veranda: the ${this.props.title} panel failed.`, error, info.componentStack);
  }

  render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="panel">
        <div className="panel__head">
          <h2>{this.props.title}</h2>
        </div>
        <p role="alert" className="panel__note">
          {SOMETHING_WENT_WRONG}
        </p>
      </section>
    );
  }
}
