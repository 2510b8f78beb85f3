/**
 * The controller's bind addresses (`--metrics-bind-address`, `--health-probe-bind-address`), in a
 * module of its own: the CLI parses them with the other flags, and the servers that use them
 * (http-endpoints.ts) bring Node's http module and the metrics registry, which no other command needs.
 */

/** Where a server listens: `host` (all interfaces when undefined) and `port`. */
export interface BindAddress {
  readonly host?: string;
  readonly port: number;
}

/**
 * Parses a controller-runtime bind address: `:8080` (every interface), `127.0.0.1:8080`,
 * `[::1]:8080`, `localhost:8080`; `0` disables the server (undefined).
 * @throws Error when it is none of these
 */
export function parseBindAddress(value: string): BindAddress | undefined {
  if (value === '0') return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  if (!match) throw new Error(`${JSON.stringify(value)}: expected [HOST]:PORT, or 0 to disable`);
  const port = Number(match[3]);
  if (port > 65535) throw new Error(`${JSON.stringify(value)}: port ${port} is out of range`);
  const host = match[1] ?? match[2];
  return { ...(host ? { host } : {}), port };
}
