/*
 * Everything bench:scale starts (servers, Redis, nginx, the fleet, temporary directories, the
 * PostgreSQL database) is put here as it starts, and stopped in reverse order: at the end of each
 * run, on an error, and on Ctrl-C.
 */

interface Step {
  name: string;
  run: () => Promise<void> | void;
}

export class Teardown {
  private readonly steps: Step[] = [];

  /** Adds a step; the returned function runs it now (once), out of turn. */
  add(name: string, run: () => Promise<void> | void): () => Promise<void> {
    const step = { name, run };
    this.steps.push(step);
    return () => this.runStep(step);
  }

  private running: Promise<void> | null = null;

  /**
   * Runs every step left, newest first; a step that fails is reported and the rest still run. A call
   * while they run (Ctrl-C during a run's end) waits for the same.
   */
  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (let step = this.steps.at(-1); step; step = this.steps.at(-1)) await this.runStep(step);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async runStep(step: Step): Promise<void> {
    const index = this.steps.indexOf(step);
    if (index === -1) return;
    this.steps.splice(index, 1);
    try {
      await step.run();
    } catch (error) {
      console.error(`  could not stop ${step.name}: ${(error as Error).message}`);
    }
  }
}

/** A repeat within this long is the same Ctrl-C passed on again (by npm or tsx), not a second one. */
const REPEAT_MS = 1_000;

/**
 * On Ctrl-C or SIGTERM: stop everything, call `atExit`, exit 130 (a second Ctrl-C exits at once).
 * `received()` tells the run that fails meanwhile (its processes gone) to leave the exit to this.
 */
export function stopOnSignals(teardown: Teardown, atExit: () => void): { received(): boolean } {
  let stoppingSince: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      if (performance.now() - stoppingSince > REPEAT_MS) process.exit(130);
      return;
    }
    stoppingSince = performance.now();
    console.log(`\n${signal}: stopping everything this bench started …`);
    void teardown.runAll().finally(() => {
      atExit();
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { received: () => stoppingSince !== null };
}
