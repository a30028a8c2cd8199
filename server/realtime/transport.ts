import type { FastifyRequest } from 'fastify';
import type { Bus } from './bus.ts';
import type { ClientKind } from './connection.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { describeIssue, encodeFrame } from './frames.ts';
import type { SocketProtocol } from './protocol.ts';
import { createPublisher, type Publisher } from './publisher.ts';

export interface TransportOptions {
  bus: Bus;
  now: () => number;
  /** The address an upgrade counts against when no protocol names a key (IPv6 per /64). */
  clientAddress(request: FastifyRequest): string;
  /** Checks what the publisher sends against its kind's schema (development and tests). */
  checkOutbound: boolean;
}

/**
 * The realtime transport: the socket endpoints, frames both ways, rate limits, liveness, and the
 * bus. It knows no feature: each registers the protocol of its kind of client (registerProtocol)
 * and sends through `publisher`.
 */
export class Transport {
  readonly publisher: Publisher;
  /** The sockets open on this instance (the socket routes add and remove them). */
  readonly connections = new ConnectionRegistry();
  private readonly protocols: SocketProtocol[] = [];

  constructor(readonly options: TransportOptions) {
    this.publisher = createPublisher(
      options.bus,
      options.checkOutbound ? (t, p) => this.check(t, p) : undefined,
    );
  }

  registerProtocol(protocol: SocketProtocol): void {
    if (this.protocols.some((p) => p.kind === protocol.kind)) {
      throw new Error(`a protocol for ${protocol.kind} is registered already`);
    }
    this.protocols.push(protocol);
  }

  /**
   * To every socket of a kind on this instance only: what each instance tells its own sockets when
   * the bus resyncs (each does, so the bus would repeat it).
   */
  sendHere(kind: ClientKind, type: string, payload: unknown): void {
    if (this.options.checkOutbound) this.check(type, payload);
    this.connections.broadcast(kind, encodeFrame(type, payload, this.options.now()));
  }

  /** The registered protocols, in registration order (the order callers are recognised in). */
  get registered(): readonly SocketProtocol[] {
    return this.protocols;
  }

  /**
   * What a socket of this protocol checks each frame against before it leaves (development and
   * tests), or undefined: a type the protocol does not declare, or a payload its schema refuses,
   * throws where the frame was built.
   */
  outgoingCheckFor(protocol: SocketProtocol): ((type: string, payload: unknown) => void) | undefined {
    if (!this.options.checkOutbound) return undefined;
    return (type, payload) => {
      const schema = Object.hasOwn(protocol.sends, type) ? protocol.sends[type] : undefined;
      if (!schema)
        throw new Error(`The ${protocol.kind} protocol does not send ${type}: add it to its sends`);
      const checked = schema.safeParse(payload);
      if (!checked.success) {
        throw new Error(`Invalid outgoing ${type} payload: ${describeIssue(checked.error)}`);
      }
    };
  }

  /** A payload no registered protocol's schema for its type accepts is a bug where it was built. */
  private check(type: string, payload: unknown): void {
    const schemas = this.protocols.flatMap((p) => (Object.hasOwn(p.sends, type) ? [p.sends[type]!] : []));
    if (schemas.length === 0) throw new Error(`No protocol sends ${type}: add it to a protocol's sends`);
    const failures = schemas.map((schema) => schema.safeParse(payload)).filter((r) => !r.success);
    if (failures.length === schemas.length && failures[0] && !failures[0].success) {
      throw new Error(`Invalid outgoing ${type} payload: ${describeIssue(failures[0].error)}`);
    }
  }
}
