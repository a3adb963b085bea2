export function LibraryScreen() {
  return (
    <section className="screen" aria-labelledby="library-title">
      <header className="screen-head">
        <h1 id="library-title">Library</h1>
      </header>
      <div className="empty">
        <p className="empty-title">This library has no photos yet.</p>
        <p>Photo import is not available in this version.</p>
      </div>
    </section>
  );
}
