/**
 * The feed sockets open on this instance, counted by client address (IPv6: its /64) and by script
 * key, against FEED_SOCKETS_PER_ADDRESS and FEED_SOCKETS_PER_KEY. Counts are per instance: behind a
 * load balancer spreading one client over N instances it may hold N times as many (docs/scale-out.md).
 * Each check and count runs in one synchronous step, so sockets opening at once cannot all slip in.
 */
export class FeedSocketCaps<S> {
  private readonly byAddress = new Map<string, Set<S>>();
  /** Oldest first. */
  private readonly byKey = new Map<string, S[]>();
  private readonly addressOf = new Map<S, string>();
  private readonly keyOf = new Map<S, string>();

  constructor(readonly limits: { perAddress: number; perKey: number }) {}

  /** Whether the address holds as many sockets as it may (a further one is refused). */
  isFull(address: string): boolean {
    return (this.byAddress.get(address)?.size ?? 0) >= this.limits.perAddress;
  }

  /** Counts an opened socket against its address; false, counting nothing, when the address is full. */
  open(socket: S, address: string): boolean {
    if (this.isFull(address)) return false;
    let sockets = this.byAddress.get(address);
    if (!sockets) {
      sockets = new Set();
      this.byAddress.set(address, sockets);
    }
    sockets.add(socket);
    this.addressOf.set(socket, address);
    return true;
  }

  /**
   * Counts a socket against the key it was accepted with. Returns the key's sockets beyond its cap,
   * oldest first, no longer counted: the caller closes them (the newest connection wins, so a
   * restarted script is never locked out by its own dead socket).
   */
  keyAccepted(socket: S, key: string): S[] {
    if (this.keyOf.has(socket)) return [];
    const sockets = this.byKey.get(key) ?? [];
    sockets.push(socket);
    this.byKey.set(key, sockets);
    this.keyOf.set(socket, key);
    const over = sockets.splice(0, Math.max(0, sockets.length - this.limits.perKey));
    for (const old of over) this.keyOf.delete(old);
    return over;
  }

  /** The socket closed: it counts no more. */
  close(socket: S): void {
    const address = this.addressOf.get(socket);
    if (address !== undefined) {
      this.addressOf.delete(socket);
      const sockets = this.byAddress.get(address);
      sockets?.delete(socket);
      if (sockets?.size === 0) this.byAddress.delete(address);
    }
    const key = this.keyOf.get(socket);
    if (key !== undefined) {
      this.keyOf.delete(socket);
      const sockets = this.byKey.get(key)?.filter((s) => s !== socket) ?? [];
      if (sockets.length > 0) this.byKey.set(key, sockets);
      else this.byKey.delete(key);
    }
  }
}
