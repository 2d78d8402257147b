// The configuration area: the preview of the site and the live streams panel.
import type { DashboardConfig } from './config';
import { PreviewFrame } from './features/preview/preview-frame';
import { StreamsPanel } from './features/streams/streams-panel';

export function App({ config }: { config: DashboardConfig }) {
  return (
    <div className="dashboard">
      <h1>Configuration</h1>
      <PreviewFrame url={config.frameUrl} />
      <StreamsPanel />
    </div>
  );
}
