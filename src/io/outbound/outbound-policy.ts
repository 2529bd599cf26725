/**
 * @module io/outbound: which destinations the server may send a request to (decision 0067). A request
 * may name a model endpoint (`/api/eval`'s `base_url`, the trainer's `vllm_server_base_url`); without a
 * policy it reached anything the server can, internal services and cloud metadata included.
 * - Only `http:` and `https:`.
 * - The host is canonicalised first (the URL parser: `0x7f.0.0.1`, `2130706433`, `127.1` are
 *   127.0.0.1), a name is resolved, and **every** address it resolves to is checked; the request then
 *   goes to the checked address (pinned), so a second lookup cannot rebind the name elsewhere.
 * - Public addresses are allowed; loopback too unless turned off (a local vLLM is the common case);
 *   private, shared (CGNAT), link-local, metadata, reserved, multicast and unspecified ones are refused
 *   unless the operator lists the endpoint (`--allow-endpoint HOST[:PORT]`: a name, or an IP in any form).
 * An `open` policy (the CLI, where the user typed the URL) checks the scheme only.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { type AddressClass, classifyAddress } from './address-class.js'
import { OutboundRefusedError } from './outbound-refused-error.js'
import { redactUrl } from './redact-url.js'

/** Resolves a host name to its addresses (`dns.lookup` with `all: true` by default). */
export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>

export interface OutboundPolicyOptions {
  /** `HOST[:PORT]` entries allowed whatever their addresses' class. */
  allow: readonly string[]
  /** Loopback destinations allowed (default true). */
  loopback?: boolean
  resolve?: ResolveHost
}

/** Where a request goes: the address it is pinned to, and the URL's own host for Host and TLS. */
export interface Destination {
  url: URL
  /** The address connected to (checked); undefined under an open policy (the system resolves). */
  address: string | undefined
  family: 4 | 6 | undefined
}

interface AllowEntry {
  host: string
  port: number | undefined
}

const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443 }

const refusedWords: Record<AddressClass, string> = {
  loopback: 'a loopback address (refused: --no-loopback-endpoints)',
  private: 'a private address',
  link_local: 'a link-local address',
  metadata: 'a cloud metadata address',
  shared: 'a shared (carrier-grade NAT) address',
  unspecified: 'the unspecified address (it reaches this machine)',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  public: 'a public address',
}

export class OutboundPolicy {
  private readonly entries: AllowEntry[]
  private readonly loopback: boolean
  private readonly resolveHost: ResolveHost

  private constructor(
    private readonly mode: 'checked' | 'open',
    options: OutboundPolicyOptions,
  ) {
    this.entries = options.allow.map(parseAllowEntry)
    this.loopback = options.loopback ?? true
    this.resolveHost = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }))
  }

  /** The operator's policy: public and (by default) loopback, plus the listed endpoints. */
  static checked(options: OutboundPolicyOptions): OutboundPolicy {
    return new OutboundPolicy('checked', options)
  }

  /** Any destination (the user named it on the command line); the scheme is still checked. */
  static open(): OutboundPolicy {
    return new OutboundPolicy('open', { allow: [] })
  }

  /** The checked, pinned destination of `target`, or an `OutboundRefusedError` saying why not. */
  async destination(target: string | URL): Promise<Destination> {
    const url = parseUrl(target)
    if (this.mode === 'open') return { url, address: undefined, family: undefined }
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const port = url.port === '' ? (defaultPorts[url.protocol] as number) : Number(url.port)
    const listed = this.entries.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port))
    if (isIP(host) !== 0) {
      this.check({ url, address: host, port, listed })
      return { url, address: host, family: isIP(host) as 4 | 6 }
    }
    let addresses: { address: string; family: number }[]
    try {
      addresses = await this.resolveHost(host)
    } catch (error) {
      throw new OutboundRefusedError({
        code: 'endpoint_unresolved',
        message: `${redactUrl(url.href)}: the host ${host} does not resolve (${(error as { code?: string }).code ?? 'lookup failed'}).`,
      })
    }
    if (addresses.length === 0) {
      throw new OutboundRefusedError({ code: 'endpoint_unresolved', message: `${host} resolves to no address.` })
    }
    // Every address is checked: a name that resolves to a public and a private address is refused.
    for (const { address } of addresses) this.check({ url, address, port, listed })
    const first = addresses[0] as { address: string; family: number }
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
  }

  private check(options: { url: URL; address: string; port: number; listed: boolean }): void {
    const kind = classifyAddress(options.address)
    if (kind === undefined) {
      throw new OutboundRefusedError({ code: 'endpoint_not_allowed', message: `${options.address} is not an IP address.` })
    }
    if (options.listed || kind === 'public' || (kind === 'loopback' && this.loopback)) return
    const address = canonicalHost(options.address)
    const addressListed = this.entries.some(
      (entry) => entry.host === address && (entry.port === undefined || entry.port === options.port),
    )
    if (addressListed) return
    const host = options.url.hostname
    const via = canonicalHost(options.address) === host.replace(/^\[|\]$/g, '') ? '' : ` (${host} resolves to ${options.address})`
    throw new OutboundRefusedError({
      code: 'endpoint_not_allowed',
      message: `${redactUrl(options.url.href)} is ${refusedWords[kind]}${via}; the server does not send requests there unless its operator allows it with --allow-endpoint ${host}${options.url.port ? `:${options.url.port}` : ''}.`,
      details: { address_class: kind },
    })
  }
}

function parseUrl(target: string | URL): URL {
  let url: URL
  try {
    url = typeof target === 'string' ? new URL(target) : target
  } catch {
    throw new OutboundRefusedError({
      code: 'endpoint_invalid_url',
      message: `${JSON.stringify(redactUrl(String(target)).slice(0, 200))} is not a URL.`,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefusedError({
      code: 'endpoint_scheme_refused',
      message: `${url.protocol} URLs are refused: only http: and https: endpoints are requested.`,
    })
  }
  return url
}

/** The canonical text of an IP literal (as the URL parser writes it), or a lower-case name. */
function canonicalHost(host: string): string {
  try {
    return new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return host.toLowerCase()
  }
}

/** `HOST[:PORT]`: a name, an IPv4 address in any form the URL parser takes, or `[IPv6]`. */
export function parseAllowEntry(entry: string): AllowEntry {
  const text = entry.trim()
  const bareIpv6 = isIP(text) === 6 ? `[${text}]` : text
  let url: URL | undefined
  try {
    url = /^[^/?#@\s]+$/.test(bareIpv6) ? new URL(`http://${bareIpv6}/`) : undefined
  } catch {
    url = undefined
  }
  if (url === undefined || url.username !== '' || url.hostname === '') {
    throw new OutboundRefusedError({
      code: 'invalid_allow_endpoint',
      message: `--allow-endpoint ${JSON.stringify(entry)}: expected HOST[:PORT] (a name, an IP address, or [IPv6]), without a scheme or path.`,
    })
  }
  const explicitPort = /:(\d+)$/.test(bareIpv6) && !bareIpv6.endsWith(']')
  return {
    host: url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, ''),
    port: explicitPort ? Number(/:(\d+)$/.exec(bareIpv6)?.[1]) : undefined,
  }
}
