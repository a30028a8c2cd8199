import { createRequire } from 'node:module';
import pino, { type DestinationStream } from 'pino';

/*
 * Where and how the server's log lines are written: JSON lines (what journald, docker logs and log
 * shippers read), or readable lines through pino-pretty when a person watches a terminal.
 */

export type LogFormat = 'pretty' | 'json';

/** pino-pretty's path, or null when it is not installed (a development convenience, not a dependency). */
function prettyPrinterPath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return null;
  }
}

/**
 * LOG_FORMAT when set, else pretty on a terminal and json otherwise; json when pino-pretty is not
 * installed, with a note saying so when pretty was asked for by name.
 */
export function chooseLogFormat(
  setting: LogFormat | undefined,
  stdoutIsTerminal: boolean,
  prettyInstalled: boolean,
): { format: LogFormat; note?: string } {
  const wanted = setting ?? (stdoutIsTerminal ? 'pretty' : 'json');
  if (wanted === 'json' || prettyInstalled) return { format: wanted };
  return setting === 'pretty'
    ? {
        format: 'json',
        note: 'LOG_FORMAT=pretty needs the pino-pretty package, which is not installed: writing JSON lines',
      }
    : { format: 'json' };
}

/** Fields the pretty lines leave out: the message says them (a request's line, the summary's figures). */
const NOT_PRETTY = ['pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'activity'];

export interface LogOutput {
  format: LogFormat;
  /** Where the lines go; undefined: stdout, as JSON. */
  stream?: DestinationStream;
  /** Why the format is not the one asked for, to log once the logger exists. */
  note?: string;
}

/**
 * The log's destination for LOG_FORMAT `setting` on this process's stdout. Pretty lines are
 * formatted in pino-pretty's own worker thread (a pino transport), which pino flushes on exit.
 */
export function openLogOutput(setting: LogFormat | undefined): LogOutput {
  const printer = prettyPrinterPath();
  const { format, note } = chooseLogFormat(setting, process.stdout.isTTY === true, printer !== null);
  if (format === 'json' || printer === null) return { format: 'json', ...(note ? { note } : {}) };
  const stream = pino.transport({
    target: printer,
    options: {
      destination: 1,
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: NOT_PRETTY.join(','),
    },
  }) as DestinationStream;
  return { format, stream };
}
