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

  /** Runs every step left, newest first; a step that fails is reported and the rest still run. */
  async runAll(): Promise<void> {
    for (let step = this.steps.at(-1); step; step = this.steps.at(-1)) await this.runStep(step);
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

/** On Ctrl-C or SIGTERM: stop everything, then exit (a second signal exits at once). */
export function stopOnSignals(teardown: Teardown, atExit: () => void): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    console.log(`\n${signal}: stopping everything this bench started …`);
    void teardown.runAll().finally(() => {
      atExit();
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
