/**
 * A read-through cache for the loader's hot lookups (scripts by filename, script keys by key),
 * emptied entry by entry when the bus says the row changed.
 *
 * A read that started before an invalidation may return the old row after it; storing that would
 * keep serving the old row until the next change. So every invalidation bumps a generation, and a
 * fill is stored only when no invalidation happened while it read. Concurrent misses of one entry
 * share one read. Values the read does not find (unknown keys, missing scripts) are never stored.
 */
export class LoaderCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly reads = new Map<string, Promise<V | undefined>>();
  private generation = 0;

  get(id: string): V | undefined {
    return this.entries.get(id);
  }

  /** The cached value, or what `read` finds (stored unless invalidated meanwhile). */
  fill(id: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const running = this.reads.get(id);
    if (running !== undefined) return running;
    const generation = this.generation;
    const reading = read().then(
      (value) => {
        if (this.reads.get(id) === reading) this.reads.delete(id);
        if (value !== undefined && generation === this.generation) this.entries.set(id, value);
        return value;
      },
      (error: unknown) => {
        if (this.reads.get(id) === reading) this.reads.delete(id);
        throw error;
      },
    );
    this.reads.set(id, reading);
    return reading;
  }

  /** The entry must be read again; a read already running for it is not stored nor shared. */
  invalidate(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
    this.reads.delete(id);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.reads.clear();
  }
}
