import { describe, expect, it } from 'vitest'
import { classifyAddress } from './address-class.js'
import { OutboundPolicy, parseAllowEntry } from './outbound-policy.js'
import { redactUrl } from './redact-url.js'

/** A resolver from a table: the test decides what each name resolves to. */
const table =
  (entries: Record<string, string[]>) =>
  async (host: string): Promise<{ address: string; family: number }[]> => {
    const addresses = entries[host]
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

const resolve = table({
  localhost: ['127.0.0.1', '::1'],
  'public.example': ['93.184.216.34'],
  'internal.example': ['10.0.0.5'],
  'mixed.example': ['93.184.216.34', '10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'vllm.internal': ['10.1.2.3'],
})

async function refusal(policy: OutboundPolicy, url: string): Promise<{ code: string; class?: unknown } | undefined> {
  try {
    await policy.destination(url)
    return undefined
  } catch (error) {
    const { code, details } = error as { code: string; details?: { address_class?: unknown } }
    return { code, ...(details?.address_class ? { class: details.address_class } : {}) }
  }
}

/** Every spelling of loopback the issue found reaching an internal service, and a few more. */
const loopbackForms = [
  'http://[::1]:8001/v1',
  'http://[::ffff:127.0.0.1]:8001/v1',
  'http://0x7f.0.0.1:8001/v1',
  'http://2130706433:8001/v1',
  'http://127.1:8001/v1',
  'http://0177.0.0.1:8001/v1',
  'http://[::127.0.0.1]:8001/v1',
  'http://[64:ff9b::7f00:1]:8001/v1',
  'http://[2002:7f00:1::]:8001/v1',
  'http://127.255.255.254:8001/v1',
  'http://localhost:8001/v1',
]

/** Cloud metadata, every way it is spelt. */
const metadataForms = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://169.254.43518/',
  'http://0251.0376.0251.0376/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/',
  'http://metadata.example/',
]

describe('outbound policy', () => {
  it('loopback in any spelling is loopback: allowed by default, refused when loopback is off', async () => {
    const open = OutboundPolicy.checked({ allow: [], resolve })
    const closed = OutboundPolicy.checked({ allow: [], loopback: false, resolve })
    for (const url of loopbackForms) {
      const destination = await open.destination(url)
      expect(classifyAddress(destination.address as string), url).toBe('loopback')
      expect(await refusal(closed, url), url).toEqual({ code: 'endpoint_not_allowed', class: 'loopback' })
    }
  })

  it('metadata, private, link-local, shared, unspecified and multicast addresses are refused unless listed', async () => {
    const policy = OutboundPolicy.checked({ allow: [], resolve })
    for (const url of metadataForms)
      expect(await refusal(policy, url), url).toEqual({ code: 'endpoint_not_allowed', class: 'metadata' })
    const others: [string, string][] = [
      ['http://10.0.0.5:8000/v1', 'private'],
      ['http://0x0a000005:8000/v1', 'private'],
      ['http://172.16.3.4/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://[fc00::1]/', 'private'],
      ['http://[::ffff:10.0.0.5]/', 'private'],
      ['http://169.254.1.1/', 'link_local'],
      ['http://[fe80::1]/', 'link_local'],
      ['http://100.64.0.1/', 'shared'],
      ['http://0.0.0.0:8001/', 'unspecified'],
      ['http://[::]:8001/', 'unspecified'],
      ['http://0/', 'unspecified'],
      ['http://224.0.0.1/', 'multicast'],
      ['http://internal.example:8000/v1', 'private'],
      // A name with one public and one private address is refused whole: it could answer either.
      ['http://mixed.example/v1', 'private'],
    ]
    for (const [url, kind] of others)
      expect(await refusal(policy, url), url).toEqual({ code: 'endpoint_not_allowed', class: kind })
  })

  it('public addresses are allowed; a name is pinned to the address that was checked', async () => {
    const policy = OutboundPolicy.checked({ allow: [], resolve })
    expect(await policy.destination('https://public.example/v1')).toMatchObject({ address: '93.184.216.34', family: 4 })
    expect((await policy.destination('http://93.184.216.34:8000/v1')).address).toBe('93.184.216.34')
  })

  it('--allow-endpoint opens a listed host (any IP spelling), on its port only when it names one', async () => {
    const policy = OutboundPolicy.checked({
      allow: ['0x0a.0.0.5:8000', 'vllm.internal', '[fe80::1]:9000', '169.254.169.254:80'],
      resolve,
    })
    expect((await policy.destination('http://10.0.0.5:8000/v1')).address).toBe('10.0.0.5')
    expect(await refusal(policy, 'http://10.0.0.5:8001/v1')).toMatchObject({ code: 'endpoint_not_allowed' })
    expect((await policy.destination('http://vllm.internal:8000/v1')).address).toBe('10.1.2.3')
    expect((await policy.destination('http://[fe80::1]:9000/')).address).toBe('fe80::1')
    expect((await policy.destination('http://169.254.169.254/')).address).toBe('169.254.169.254')
    // A name that resolves to a listed address passes through the address, not the name.
    expect(await refusal(OutboundPolicy.checked({ allow: ['10.0.0.5'], resolve }), 'http://internal.example/')).toBeUndefined()
  })

  it('only http and https; a name that does not resolve is a coded refusal', async () => {
    const policy = OutboundPolicy.checked({ allow: [], resolve })
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'ftp://127.0.0.1/', 'data:text/plain,x']) {
      expect(await refusal(policy, url), url).toEqual({ code: 'endpoint_scheme_refused' })
      expect(await refusal(OutboundPolicy.open(), url), url).toEqual({ code: 'endpoint_scheme_refused' })
    }
    expect(await refusal(policy, 'not a url')).toEqual({ code: 'endpoint_invalid_url' })
    expect(await refusal(policy, 'http://nowhere.example/')).toEqual({ code: 'endpoint_unresolved' })
  })

  it('a refusal message redacts credentials', async () => {
    const policy = OutboundPolicy.checked({ allow: [], resolve })
    const error = await policy.destination('http://user:hunter2@10.0.0.5:8000/v1').catch((caught: Error) => caught)
    expect((error as Error).message).toContain('http://***@10.0.0.5:8000/v1')
    expect((error as Error).message).not.toContain('hunter2')
  })

  it('allow entries are HOST[:PORT], nothing else', () => {
    expect(parseAllowEntry('vllm.internal:8000')).toEqual({ host: 'vllm.internal', port: 8000 })
    expect(parseAllowEntry('2130706433')).toEqual({ host: '127.0.0.1', port: undefined })
    expect(parseAllowEntry('[::ffff:10.0.0.5]:80')).toEqual({ host: '::ffff:a00:5', port: 80 })
    expect(parseAllowEntry('fd00::1')).toEqual({ host: 'fd00::1', port: undefined })
    for (const bad of ['http://x', 'a/b', 'user@host', '', 'host:99999']) {
      expect(() => parseAllowEntry(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_allow_endpoint' }))
    }
  })
})

describe('redactUrl', () => {
  it('hides credentials and secret-looking query values; leaves any other URL exactly as written', () => {
    expect(redactUrl('http://user:pass@127.0.0.1:8001/v1')).toBe('http://***@127.0.0.1:8001/v1')
    expect(redactUrl('https://api.example/v1?api_key=abc&model=m')).toBe('https://api.example/v1?api_key=***&model=m')
    expect(redactUrl('http://127.0.0.1:8001/v1')).toBe('http://127.0.0.1:8001/v1')
    expect(redactUrl('http://127.0.0.1:8001')).toBe('http://127.0.0.1:8001')
    expect(redactUrl('not a url //user:pw@host')).toBe('not a url //***@host')
  })
})
