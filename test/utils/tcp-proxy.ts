import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** One direction of a relayed connection: bytes held back while the proxy is stalled. */
interface Pipe {
  from: Socket;
  to: Socket;
  held: Buffer[];
  ended: boolean;
  /** This direction alone is held back (see holdAnswersAfter). */
  holding: boolean;
}

/**
 * A TCP relay between the application and a database server that a test can cut (every open
 * connection dropped, new ones refused) or stall (bytes held back in both directions, sockets left
 * open, as on a network that stops delivering), and then restore, without touching the shared
 * server itself.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly pipes = new Set<Pipe>();
  /** Each relayed connection's server side, with its application side, until the server side closes. */
  private readonly upstreams = new Map<Socket, Socket>();
  private port = 0;
  private stalled = false;
  private holdAfter?: Buffer;
  private cutAt?: { marker: Buffer; left: number };

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /**
   * Starts listening (on a free port the first time, on the same port after a cut) and returns the port;
   * a cut still waiting for its statement is called off.
   */
  async start(): Promise<number> {
    this.cutAt = undefined;
    if (this.server) return this.port;
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Drops every relayed connection and refuses new ones until `start()` is called again. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.pipes.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Stops delivering bytes (and closes) either way; connections stay open and new ones are accepted. */
  stall(): void {
    this.stalled = true;
  }

  /**
   * Relays as usual until the application sends `marker` (e.g. `COMMIT`) on a connection: the
   * server receives it, but its answers on that connection are held back, as when a network fails
   * just after delivering a statement.
   */
  holdAnswersAfter(marker: string): void {
    this.holdAfter = Buffer.from(marker);
  }

  /**
   * Relays as usual until the application sends `marker` for the `occurrence`-th time (counted from
   * this call): that statement is not delivered, and the proxy cuts as `cut()` does. A fault placed
   * between two statements of one request, such as the chunks of a streamed answer, whatever the pace.
   */
  cutBefore(marker: string, occurrence: number): void {
    this.cutAt = { marker: Buffer.from(marker), left: occurrence };
  }

  /** Delivers what was held back, in order, and relays as usual again. */
  resume(): void {
    this.stalled = false;
    this.holdAfter = undefined;
    for (const pipe of this.pipes) {
      pipe.holding = false;
      this.flush(pipe);
    }
  }

  /**
   * Relayed connections the application has closed whose server side is still open: during a stall the
   * server still runs their sessions (a transaction and its locks included), and after it, until the
   * server has answered what was held back for them and closed them.
   */
  abandoned(): number {
    let count = 0;
    for (const client of this.upstreams.values()) if (client.destroyed) count++;
    return count;
  }

  async stop(): Promise<void> {
    this.resume();
    await this.cut();
  }

  private relay(client: Socket): void {
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    const [request, answer] = [
      { from: client, to: upstream, held: [], ended: false, holding: false },
      { from: upstream, to: client, held: [], ended: false, holding: false },
    ] as Pipe[];
    const pipes = [request!, answer!];
    this.upstreams.set(upstream, client);
    upstream.once('close', () => this.upstreams.delete(upstream));
    for (const pipe of pipes) {
      this.pipes.add(pipe);
      pipe.from.on('data', (chunk: Buffer) => {
        if (pipe === request && this.cutAt && chunk.includes(this.cutAt.marker) && --this.cutAt.left === 0) {
          this.cutAt = undefined;
          void this.cut();
          return;
        }
        if (this.stalled || pipe.holding) pipe.held.push(chunk);
        else pipe.to.write(chunk);
        if (pipe === request && this.holdAfter && chunk.includes(this.holdAfter)) answer!.holding = true;
      });
      pipe.from.on('end', () => {
        pipe.ended = true;
        if (!this.stalled && !pipe.holding) this.flush(pipe);
      });
    }
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        if (client.destroyed && upstream.destroyed) pipes.forEach((pipe) => this.pipes.delete(pipe));
        // While stalled, a close reaches the other side only after the bytes held before it (see flush).
        if (!this.stalled) {
          client.destroy();
          upstream.destroy();
        }
      });
    }
  }

  private flush(pipe: Pipe): void {
    for (const chunk of pipe.held.splice(0)) pipe.to.write(chunk);
    if (pipe.ended || pipe.from.destroyed) pipe.to.end();
  }
}
