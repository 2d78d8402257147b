// The configuration area: the preview of the site and the live panels (edits, errors,
// form submissions, visitors, traffic over time, top pages and referrers, web vitals, orders),
// each loaded on its own and failing on its own.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { PanelBoundary } from './components/panel-boundary';
import type { DashboardConfig } from './config';
import { PreviewFrame } from './features/preview/preview-frame';
import type { LiveStreamTransport } from './streams/use-live-stream';

const EditsPanel = lazy(() => import('./features/edits/edits-panel').then((m) => ({ default: m.EditsPanel })));
const ErrorsPanel = lazy(() => import('./features/errors/errors-panel').then((m) => ({ default: m.ErrorsPanel })));
const FormsPanel = lazy(() => import('./features/forms/forms-panel').then((m) => ({ default: m.FormsPanel })));
const VisitorsPanel = lazy(() => import('./features/visitors/visitors-panel').then((m) => ({ default: m.VisitorsPanel })));
const OrdersPanel = lazy(() => import('./features/orders/orders-panel').then((m) => ({ default: m.OrdersPanel })));
const TrafficPanel = lazy(() => import('./features/traffic/traffic-panel').then((m) => ({ default: m.TrafficPanel })));
const TopPanel = lazy(() => import('./features/top/top-panel').then((m) => ({ default: m.TopPanel })));
const VitalsPanel = lazy(() => import('./features/vitals/vitals-panel').then((m) => ({ default: m.VitalsPanel })));

/** The dashboard's data cache: live data is pushed in, so reads are not repeated on focus. */
export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

/** One panel: loaded on its own, and failing on its own (`PanelBoundary`). */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PanelBoundary title={title}>
      <Suspense fallback={<p className="panel panel__empty">Loading…</p>}>{children}</Suspense>
    </PanelBoundary>
  );
}

/** Why no live panel shows: nobody signed in, or an account without the permission. */
function NoPanels({ signedIn, frameUrl }: { signedIn: boolean; frameUrl: string }) {
  const login = `/account/login?${new URLSearchParams({ returnUrl: `/config/?${new URLSearchParams({ frameUrl })}` })}`;
  return (
    <section aria-labelledby="panels-heading" className="panel dashboard__notice">
      <h2 id="panels-heading">Live panels</h2>
      {signedIn ? (
        <p>Your account does not have permission for the live edits, errors and form submissions.</p>
      ) : (
        <p>
          <a href={login}>Sign in</a> to follow the live edits, errors and form submissions.
        </p>
      )}
    </section>
  );
}

/** The dashboard; `queryClient` and `transport` are replaced in tests. */
export function App({
  config,
  queryClient,
  transport,
}: {
  config: DashboardConfig;
  queryClient?: QueryClient;
  transport?: LiveStreamTransport;
}) {
  const [client] = useState(() => queryClient ?? newQueryClient());
  return (
    <QueryClientProvider client={client}>
      <div className="dashboard">
        <h1>Configuration</h1>
        <PreviewFrame url={config.frameUrl} />
        {config.panels.length > 0 ? (
          <div className="dashboard__panels">
            {config.panels.includes('edits') && (
              <Panel title="Edits">
                <EditsPanel transport={transport} />
              </Panel>
            )}
            {config.panels.includes('errors') && (
              <Panel title="Errors">
                <ErrorsPanel transport={transport} />
              </Panel>
            )}
            {config.panels.includes('forms') && (
              <Panel title="Form submissions">
                <FormsPanel />
              </Panel>
            )}
            {config.panels.includes('visitors') && (
              <>
                <Panel title="Visitors">
                  <VisitorsPanel />
                </Panel>
                <Panel title="Traffic">
                  <TrafficPanel />
                </Panel>
                <Panel title="Top pages and referrers">
                  <TopPanel />
                </Panel>
              </>
            )}
            {config.panels.includes('vitals') && (
              <Panel title="Web vitals">
                <VitalsPanel />
              </Panel>
            )}
            {config.panels.includes('orders') && (
              <Panel title="Orders">
                <OrdersPanel transport={transport} />
              </Panel>
            )}
          </div>
        ) : (
          <NoPanels signedIn={config.signedIn} frameUrl={config.frameUrl} />
        )}
      </div>
    </QueryClientProvider>
  );
}
