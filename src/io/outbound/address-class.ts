/**
 * @module io/outbound: what kind of address an IP literal is, after canonicalisation. Every spelling a
 * URL parser accepts for an address is the same address here: `0x7f.0.0.1`, `2130706433`, `127.1` and
 * `0177.0.0.1` are 127.0.0.1 (the WHATWG URL parser turns them into it), and an IPv6 address that carries
 * an IPv4 one (`::ffff:127.0.0.1`, `::127.0.0.1`, NAT64 `64:ff9b::7f00:1`, 6to4 `2002:7f00:1::`) is
 * classed by the IPv4 address it carries.
 */
import { isIPv4, isIPv6 } from 'node:net'

export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'public'

/** Cloud instance-metadata services: credentials live there. */
const metadataAddresses = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.169.123',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2:0:0:0:0:0:254',
])

type Range = [prefix: number[], bits: number, kind: AddressClass]

const v4Ranges: Range[] = [
  [[0], 8, 'unspecified'],
  [[127], 8, 'loopback'],
  [[10], 8, 'private'],
  [[172, 16], 12, 'private'],
  [[192, 168], 16, 'private'],
  [[100, 64], 10, 'shared'],
  [[169, 254], 16, 'link_local'],
  [[192, 0, 0], 24, 'reserved'],
  [[192, 0, 2], 24, 'reserved'],
  [[198, 18], 15, 'reserved'],
  [[198, 51, 100], 24, 'reserved'],
  [[203, 0, 113], 24, 'reserved'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
]

const v6Ranges: Range[] = [
  [[0xfc], 7, 'private'],
  [[0xfe, 0x80], 10, 'link_local'],
  [[0xfe, 0xc0], 10, 'private'],
  [[0xff], 8, 'multicast'],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'private'],
  [[0x20, 0x01, 0x00, 0x00], 32, 'reserved'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'],
]

/** The class of an IP literal (v4 dotted quad or v6, brackets allowed); undefined when it is not one. */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.replace(/^\[|\]$/g, '')
  const v4 = isIPv4(bare) ? bare.split('.').map(Number) : undefined
  if (v4) return classifyV4(v4)
  if (!isIPv6(bare)) return undefined
  const bytes = ipv6Bytes(bare)
  const embedded = embeddedV4(bytes)
  if (embedded) return classifyV4(embedded)
  if (bytes.every((byte) => byte === 0)) return 'unspecified'
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return 'loopback'
  if (metadataAddresses.has(groupsOf(bytes).join(':'))) return 'metadata'
  return rangeClass(bytes, v6Ranges) ?? 'public'
}

function classifyV4(bytes: number[]): AddressClass {
  if (metadataAddresses.has(bytes.join('.'))) return 'metadata'
  if (bytes.every((byte) => byte === 255)) return 'reserved'
  return rangeClass(bytes, v4Ranges) ?? 'public'
}

function rangeClass(bytes: number[], ranges: Range[]): AddressClass | undefined {
  for (const [prefix, bits, kind] of ranges) {
    let matches = true
    for (let bit = 0; bit < bits && matches; bit++) {
      const index = bit >> 3
      const mask = 0x80 >> (bit & 7)
      matches = ((bytes[index] ?? 0) & mask) === ((prefix[index] ?? 0) & mask)
    }
    if (matches) return kind
  }
  return undefined
}

/** The IPv4 address an IPv6 one carries: mapped, compatible (deprecated), NAT64 well-known, 6to4. */
function embeddedV4(bytes: number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0)
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12)
  // ::a.b.c.d, but not :: or ::1 (their own classes).
  if (zeros(0, 12) && !zeros(12, 15)) return bytes.slice(12)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6)
  return undefined
}

/** The 16 bytes of an IPv6 address (a trailing dotted quad allowed). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = (dotted[1] as string).split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16)
    return [value >> 8, value & 0xff]
  })
}

function groupsOf(bytes: number[]): string[] {
  const groups: string[] = []
  for (let index = 0; index < 16; index += 2) groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16))
  return groups
}
