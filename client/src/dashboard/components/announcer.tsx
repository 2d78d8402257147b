// A polite live region that is not chatty: new items are counted and announced as one
// summary ("3 new edits") at most once per `everyMs`.
import { useCallback, useEffect, useRef, useState } from 'react';

/** The summary for `count` new items. */
export type Summary = (count: number) => string;

/** Counts notes and gives the latest summary, at most once per `everyMs`. */
export function useSummaryAnnouncer(summary: Summary, everyMs = 3_000): { message: string; note(): void } {
  const [message, setMessage] = useState('');
  const pending = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const text = useRef(summary);
  text.current = summary;
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const note = useCallback(() => {
    pending.current += 1;
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setMessage(text.current(pending.current));
      pending.current = 0;
    }, everyMs);
  }, [everyMs]);
  return { message, note };
}

/** The visually hidden `role="status"` region that reads `message`. */
export function Announcer({ message }: { message: string }) {
  return (
    <p role="status" className="visually-hidden">
      {message}
    </p>
  );
}
