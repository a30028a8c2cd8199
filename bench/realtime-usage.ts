/*
 * CPU and memory of a benchmark's server process, asked over the IPC channel its parent opened:
 * the parent sends 'usage', the child answers {type: 'usage', cpuMicros, rss}.
 */

export interface UsageAnswer {
  type: 'usage';
  /** User + system CPU time since the process started, in microseconds. */
  cpuMicros: number;
  rss: number;
}

export function answerUsageQueries(): void {
  process.on('message', (message) => {
    if (message !== 'usage') return;
    const cpu = process.cpuUsage();
    const answer: UsageAnswer = {
      type: 'usage',
      cpuMicros: cpu.user + cpu.system,
      rss: process.memoryUsage().rss,
    };
    process.send?.(answer);
  });
}
