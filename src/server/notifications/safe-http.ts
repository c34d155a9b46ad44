/**
 * Outgoing HTTP to addresses a client chose (its webhook URL): the one way such a request is
 * made. The name is resolved once, by the connection's own `lookup`; every answer is checked, and
 * the socket connects to exactly the answer that was checked, so a name that answers a public
 * address to a check and 127.0.0.1 to the connection (DNS rebinding) reaches nothing. Literal
 * addresses are checked before connecting, and the connected peer once more.
 *
 * Refused: loopback, private, carrier-grade NAT, link-local (cloud metadata), multicast, reserved
 * and unspecified ranges; IPv6 unique-local, link- and site-local, multicast; the IPv4-mapped,
 * IPv4-compatible (`::127.0.0.1`), NAT64 (`64:ff9b::/96`) and 6to4 forms of a refused IPv4
 * address; and the host's own addresses. `allowPrivate` (CLIENT_WEBHOOKS_ALLOW_PRIVATE, tests and
 * development) lets them through by the same path.
 *
 * Redirects are never followed (a 3xx is an answer like any other), and connecting and answering
 * each have a short time limit, so a slow endpoint costs its own deliveries only.
 *
 * `createAddressGuard` is the checks alone: the voice platforms' recording fetches go through it
 * (bootstrap.ts hands it to them), never with `allowPrivate`.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, isIPv4, isIPv6, type LookupFunction, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface SafeHttpOptions {
  allowPrivate: boolean;
  /** The resolver (tests inject one); the system's, every answer, by default. */
  resolve?: Resolve;
  /** The host's own addresses; os.networkInterfaces() by default. */
  ownAddresses?: () => Iterable<string>;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
}

export interface SafeHttp {
  /** Whether the URL's host may be called now (the save-time check): the connection's own rules. */
  check(url: string): Promise<boolean>;
  /** One POST; resolves with the status (the body is discarded). Rejects with RefusedTargetError,
   * TargetTimeoutError, or the network's error. */
  post(url: string, request: { headers: Record<string, string>; body: string }): Promise<{ status: number }>;
  readonly responseTimeoutMs: number;
}

export const CONNECT_TIMEOUT_MS = 3_000;
export const RESPONSE_TIMEOUT_MS = 5_000;

export class RefusedTargetError extends Error {
  constructor() {
    super('the address resolves inside a private network');
    this.name = 'RefusedTargetError';
  }
}

export class TargetTimeoutError extends Error {
  constructor(readonly phase: 'connect' | 'response') {
    super(phase === 'connect' ? 'no connection in time' : 'no answer in time');
    this.name = 'TimeoutError';
  }
}

/** [first address, prefix length] of the refused IPv4 ranges. */
const REFUSED_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const v4Number = (bytes: ArrayLike<number>, at = 0) =>
  ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
const REFUSED_V4_MASKS = REFUSED_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { net: (v4Number(net.split('.').map(Number)) & mask) >>> 0, mask };
});

function isRefusedV4(bytes: ArrayLike<number>, at = 0): boolean {
  const n = v4Number(bytes, at);
  return REFUSED_V4_MASKS.some(({ net, mask }) => (n & mask) >>> 0 === net);
}

/** The 16 bytes of an IPv6 address (zone dropped), or null. */
function v6Bytes(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return null;
  let tail: number[] | null = null;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = dotted[2].split('.').map(Number);
    text = `${dotted[1]}0:0`;
  }
  const [head, rest] = text.split('::');
  const h = head ? head.split(':') : [];
  const r = rest === undefined ? null : rest ? rest.split(':') : [];
  const groups = r === null ? h : [...h, ...Array<string>(8 - h.length - r.length).fill('0'), ...r];
  const bytes = groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail) bytes.splice(12, 4, ...tail);
  return bytes.length === 16 ? bytes : null;
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address an IPv6 form carries (mapped, compatible, NAT64, 6to4), as bytes and offset. */
function embeddedV4(bytes: number[]): number | null {
  const zeros = (n: number) => bytes.slice(0, n).every((b) => b === 0);
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return 12; // ::ffff:a.b.c.d
  if (zeros(8) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) return 12; // SIIT
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return 12; // NAT64
  if (startsWith(bytes, [0x20, 0x02])) return 2; // 6to4
  return null;
}

function isRefusedV6(bytes: number[]): boolean {
  const v4At = embeddedV4(bytes);
  if (v4At !== null) return isRefusedV4(bytes, v4At);
  // ::/96: unspecified, loopback and the deprecated IPv4-compatible form (::127.0.0.1).
  if (bytes.slice(0, 12).every((b) => b === 0)) return true;
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) return true; // local-use NAT64 64:ff9b:1::/48
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return true; // Teredo (hides an IPv4 address)
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return true; // documentation
  // Everything else outside global unicast 2000::/3: unique-local fc00::/7, link-local fe80::/10,
  // site-local fec0::/10, multicast ff00::/8, discard 100::/64, reserved.
  return (bytes[0] & 0xe0) !== 0x20;
}

/** One spelling per address, to compare with the host's own: IPv4 dotted, IPv6 as hex bytes. */
function canonical(address: string): string | null {
  if (isIPv4(address)) return address;
  const bytes = v6Bytes(address);
  if (!bytes) return null;
  const v4At = embeddedV4(bytes);
  if (v4At !== null) return bytes.slice(v4At, v4At + 4).join('.');
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

function hostAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) {
      const c = canonical(entry.address);
      if (c) own.add(c);
    }
  return own;
}

/** Whether a connection to this address is refused (`own`: the host's addresses, canonical). */
export function isRefusedAddress(address: string, own: ReadonlySet<string> = new Set()): boolean {
  if (isIPv4(address)) return isRefusedV4(address.split('.').map(Number)) || own.has(address);
  const bytes = v6Bytes(address);
  if (!bytes) return true;
  if (isRefusedV6(bytes)) return true;
  const c = canonical(address);
  return c === null || own.has(c);
}

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The address checks alone, for a client of another library (the voice platforms' recording
 * fetches, undici's `connect.lookup`): the same rules and the same rebinding-proof resolver.
 */
export interface AddressGuard {
  /** The connection's resolver: every answer checked; what it answers is what is connected to. */
  lookup: LookupFunction;
  /** Whether a literal address (never passed to `lookup`) or a connected peer is refused. */
  refused(address: string): boolean;
}

export function createAddressGuard(
  options: Pick<SafeHttpOptions, 'allowPrivate' | 'resolve' | 'ownAddresses'>,
): AddressGuard & { resolveChecked(hostname: string): Promise<{ address: string; family: number }[]> } {
  const resolve = options.resolve ?? systemResolve;
  const ownList = options.ownAddresses;
  const own = () =>
    ownList ? new Set([...ownList()].map((a) => canonical(a)).filter((a) => a !== null)) : hostAddresses();
  const refused = (address: string) => !options.allowPrivate && isRefusedAddress(address, own());

  /** Every answer for the name, each checked: one refused answer refuses the name. */
  async function resolveChecked(hostname: string) {
    const family = isIP(hostname);
    const answers = family ? [{ address: hostname, family }] : await resolve(hostname);
    if (answers.length === 0)
      throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
    if (answers.some((a) => refused(a.address))) throw new RefusedTargetError();
    return answers;
  }

  // The connection's resolver: what it answers is what was checked, and what is connected to.
  // Typed as LookupFunction by a cast: its overloads (one address, or all) cannot be written as one
  // arrow, and this one serves both by opts.all.
  const lookup = ((hostname: string, opts: { family?: number | string; all?: boolean }, callback) => {
    resolveChecked(hostname).then(
      (answers) => {
        const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family) || 0;
        const usable = family ? answers.filter((a) => a.family === family) : answers;
        if (usable.length === 0)
          return callback(
            Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        // Asked for all, Node's callback takes the list; the type it has here is the one-address form.
        if (opts.all) return (callback as (e: null, a: typeof usable) => void)(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      // dns's errors and ours carry a code (or none): what the callback's errno type reads.
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  }) as LookupFunction;

  return { lookup, refused, resolveChecked };
}

export function createSafeHttp(options: SafeHttpOptions): SafeHttp {
  const { lookup, refused, resolveChecked } = createAddressGuard(options);
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const responseTimeoutMs = options.responseTimeoutMs ?? RESPONSE_TIMEOUT_MS;

  // No keep-alive: every request resolves and checks again, and no socket outlives its request.
  const agents = {
    'http:': new http.Agent({ keepAlive: false, lookup }),
    'https:': new https.Agent({ keepAlive: false, lookup }),
  };

  async function check(url: string): Promise<boolean> {
    try {
      const parsed = new URL(url);
      if (!(parsed.protocol in agents)) return false;
      await resolveChecked(hostOf(parsed));
      return true;
    } catch {
      return false;
    }
  }

  function post(url: string, request: { headers: Record<string, string>; body: string }) {
    const parsed = new URL(url);
    // Any other protocol reads undefined, refused on the next line.
    const agent = agents[parsed.protocol as keyof typeof agents];
    if (!agent) return Promise.reject(new Error(`unsupported protocol ${parsed.protocol}`));
    // A literal address never reaches `lookup`: checked here.
    const host = hostOf(parsed);
    if (isIP(host) && refused(host)) return Promise.reject(new RefusedTargetError());
    const transport = parsed.protocol === 'https:' ? https : http;
    const body = Buffer.from(request.body, 'utf8');
    return new Promise<{ status: number }>((resolvePost, reject) => {
      let connectTimer: NodeJS.Timeout | undefined;
      const fail = (error: Error) => {
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
        req.destroy(error);
        reject(error);
      };
      const req = transport.request(parsed, {
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': String(body.length) },
      });
      const responseTimer = setTimeout(() => fail(new TargetTimeoutError('response')), responseTimeoutMs);
      req.on('socket', (socket: Socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => fail(new TargetTimeoutError('connect')), connectTimeoutMs);
        socket.prependOnceListener('connect', () => {
          clearTimeout(connectTimer);
          // The peer actually reached: refused addresses never get a byte, whatever the path.
          if (socket.remoteAddress && refused(socket.remoteAddress)) fail(new RefusedTargetError());
        });
      });
      req.on('response', (res) => {
        resolvePost({ status: res.statusCode ?? 0 });
        res.on('end', () => clearTimeout(responseTimer));
        res.on('close', () => clearTimeout(responseTimer));
        res.resume();
      });
      req.on('error', (error) => {
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
        reject(error);
      });
      req.end(body);
    });
  }

  return { check, post, responseTimeoutMs };
}
