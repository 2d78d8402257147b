// The edit stream: the latest edits of the stream's history when the dashboard opens, then
// every new one live, resumed from the last listed offset (no gap, no duplicate); newest first.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Announcer, useSummaryAnnouncer } from '../../components/announcer';
import { LoadError } from '../../components/load-error';
import { RelativeTime } from '../../components/relative-time';
import { StreamStatusLine } from '../../streams/stream-status';
import { useLiveStream, type LiveStreamTransport } from '../../streams/use-live-stream';
import { getJson } from '../../api/http';
import { addEdit, EDITS_KEY, fromRecent, keepLive, PAST_EDITS_KEY, PAST_EDITS_PATH, toEditEntry, type EditEntry, type RecentEvents } from './edits';

const summary = (n: number) => (n === 1 ? '1 new edit' : `${n} new edits`);

/** The edits panel; `transport` replaces the websocket in tests. */
export function EditsPanel({ transport }: { transport?: LiveStreamTransport }) {
  const queryClient = useQueryClient();
  const { data: edits } = useQuery<EditEntry[]>({
    queryKey: EDITS_KEY,
    queryFn: () => queryClient.getQueryData<EditEntry[]>(EDITS_KEY) ?? [],
    initialData: [],
    staleTime: Infinity,
  });
  // Lists the past edits into the cache, then gives the cursor the live stream resumes from.
  const past = useQuery({
    queryKey: PAST_EDITS_KEY,
    queryFn: async ({ signal }) => {
      const { edits: listed, cursor } = fromRecent(await getJson<RecentEvents>(PAST_EDITS_PATH, signal));
      queryClient.setQueryData<EditEntry[]>(EDITS_KEY, (seen) => keepLive(listed, seen));
      return cursor;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [dropped, setDropped] = useState(false);
  const { message, note } = useSummaryAnnouncer(summary);
  const stream = useLiveStream(
    'edits',
    {
      onEvent(frame) {
        const entry = toEditEntry(frame);
        if (!entry) return;
        queryClient.setQueryData<EditEntry[]>(EDITS_KEY, (prev) => addEdit(prev, entry));
        note();
      },
      onReset() {
        queryClient.setQueryData<EditEntry[]>(EDITS_KEY, []);
        setDropped(true);
      },
    },
    transport,
    { ready: !past.isPending, from: past.data ?? null },
  );
  return (
    <section aria-labelledby="edits-heading" className="panel">
      <div className="panel__head">
        <h2 id="edits-heading">Edits</h2>
        <StreamStatusLine stream={stream} />
      </div>
      <Announcer message={message} />
      {past.isError && <LoadError error={past.error} onRetry={() => void past.refetch()} />}
      {dropped && <p className="panel__note">The stream started over; earlier edits are no longer listed.</p>}
      {edits.length === 0 ? (
        <p className="panel__empty">{past.isPending ? 'Loading past edits…' : past.isError ? 'No edits since this page opened.' : 'No edits yet.'}</p>
      ) : (
        <ol className="feed" aria-label="Edits, newest first">
          {edits.map((edit) => (
            <li key={edit.key} className="feed__item">
              <p className="feed__title">{edit.name}</p>
              <dl className="facts">
                <dt>Actor</dt>
                <dd>{edit.actor || 'unknown'}</dd>
                <dt>Target</dt>
                <dd>
                  {edit.action} {edit.objectType} <code>{edit.objectId}</code>
                  {edit.productSection && ` (${edit.productPage} › ${edit.productSection})`}
                </dd>
                <dt>Time</dt>
                <dd>
                  <RelativeTime at={edit.at} />
                </dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
