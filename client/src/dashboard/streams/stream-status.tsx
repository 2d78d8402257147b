// A panel's live-stream status line; an unreachable stream says the spec's 'Unable to
// connect. Please try again' with a Try again button that connects at once.
import { TRY_AGAIN } from '../messages';
import { statusText, type LiveStream } from './use-live-stream';

/** The status of `stream` for the panel's header. */
export function StreamStatusLine({ stream }: { stream: LiveStream }) {
  if (stream.status !== 'unreachable') {
    return (
      <p className="panel__status" data-status={stream.status}>
        {statusText(stream.status)}
      </p>
    );
  }
  return (
    <div className="panel__status stream-unreachable" data-status="unreachable" role="alert">
      <p>{statusText(stream.status)}</p>
      <button type="button" onClick={stream.retry}>
        {TRY_AGAIN}
      </button>
    </div>
  );
}
