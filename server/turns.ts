/**
 * Runs work one at a time, in the order asked; a failure does not stop the work after it (the
 * caller of the failed run gets the failure).
 */
export class Turns {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work);
    this.last = next.catch(() => {});
    return next;
  }
}
