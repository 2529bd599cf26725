/**
 * @module server/http: the key a client's shares are counted under (connections, sessions): its IPv4
 * address (an IPv4-mapped IPv6 address is the IPv4 one), or the /64 of an IPv6 address (one host is
 * given a whole /64, so counting single addresses would let it take 2^64 shares). Behind a reverse proxy
 * every client is the proxy's address: one share for all (decision 0067).
 */
import { isIPv6 } from 'node:net'

export function clientKeyOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown'
  if (address.toLowerCase().startsWith('::ffff:') && address.includes('.')) return address.slice(7)
  if (!isIPv6(address)) return address
  const groups = expandIpv6(address)
  return `${groups.slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address, lower-case hex without leading zeros. */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('%')[0]?.split('::') ?? ['']
  const parse = (part: string) => (part === '' ? [] : part.split(':'))
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const fill = Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...fill, ...right].map((group) => Number.parseInt(group, 16).toString(16))
}
