// The live streams panel (edit events, errors, visitors, web vitals, submissions, orders).
// A placeholder until the streams are wired: it makes no network calls.
export function StreamsPanel() {
  return (
    <section aria-labelledby="streams-heading" className="dashboard__streams">
      <h2 id="streams-heading">Live streams</h2>
      <p>Live streams arrive here.</p>
    </section>
  );
}
