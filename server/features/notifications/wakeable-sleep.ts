/** A pause that a wake() ends early; a wake() while not sleeping ends the next pause at once. */
export class WakeableSleep {
  private wakeUp: (() => void) | null = null;
  private wokenEarly = false;

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.wokenEarly) {
        this.wokenEarly = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wokenEarly = true;
  }
}
