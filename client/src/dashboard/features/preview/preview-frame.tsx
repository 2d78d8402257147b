// The site preview: the page being configured, in a frame.
export function PreviewFrame({ url }: { url: string }) {
  return (
    <section aria-labelledby="preview-heading" className="dashboard__preview">
      <h2 id="preview-heading">
        Previewing <a href={url}>{url}</a>
      </h2>
      <iframe title="Site preview" src={url} style={{ width: '100%', height: '70vh', border: '1px solid #ccc' }} />
    </section>
  );
}
