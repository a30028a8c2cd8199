/*
 * A worker thread of the realtime benchmark: opens `count` receiving sockets (dashboards or feed
 * clients) and times every stamped event they get. It runs apart from the thread that plays the
 * bots, so tens of thousands of received frames a second do not delay the bots' sends (and the
 * other way round). Times are absolute (timeOrigin + now), comparable across threads.
 *
 * Protocol with the parent: it posts {ready} once every socket is open (or {error}); the parent
 * posts {measureFrom: ms}, then {stop: true}, and gets {buckets, count, delivered} back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeAll, Histogram, loopbackAddress, openMany, openSocket } from './realtime-clients.ts';

export interface ReceiversConfig {
  url: string;
  headers: Record<string, string>;
  count: number;
  /** The first socket's loopback address index (loopbackAddress). */
  addressOffset: number;
}

/** An event id carrying its absolute send time in ms: bench-<bot>-<n>-<time>. */
export const STAMP = /"(?:toJobId|jobid)":"bench-\d+-\d+-(\d+\.\d+)"/;
export const absoluteNow = () => performance.timeOrigin + performance.now();

if (parentPort) {
  const port = parentPort;
  const config = workerData as ReceiversConfig;
  const histogram = new Histogram();
  let measureFrom = Number.POSITIVE_INFINITY;
  let delivered = 0;
  const onMessage = (text: string) => {
    const match = STAMP.exec(text);
    if (!match) return;
    const sentAt = Number(match[1]);
    if (sentAt < measureFrom) return;
    delivered += 1;
    histogram.record(absoluteNow() - sentAt);
  };
  try {
    const sockets = await openMany(config.count, 20, (i) =>
      openSocket(config.url, {
        headers: config.headers,
        localAddress: loopbackAddress(config.addressOffset + i),
        onMessage,
      }),
    );
    port.on('message', (message: { measureFrom?: number; stop?: boolean }) => {
      if (message.measureFrom !== undefined) measureFrom = message.measureFrom;
      if (message.stop) {
        const buckets = histogram.buckets;
        port.postMessage({ buckets, count: histogram.count, delivered });
        void closeAll(sockets).then(() => port.close());
      }
    });
    port.postMessage({ ready: true });
  } catch (error) {
    port.postMessage({ error: (error as Error).message, status: (error as { status?: number }).status });
  }
}
