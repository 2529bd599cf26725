/**
 * `/outputs/*` never leaves the outputs root: `..` in any spelling, absolute paths, and symbolic links
 * (to a file or a folder outside, or even inside the root) are refused on ls, file and archive; archives
 * leave links out; files are served as data (no HTML, nosniff).
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer } from './train-support/operations-server.js'

let server: OperationsServer
let outside: string

beforeAll(async () => {
  server = await startOperationsServer()
  outside = await mkdtemp(join(tmpdir(), 'releaseops-outside-'))
  await writeFile(join(outside, 'secret.txt'), 'top secret\n')
  const root = server.outputs
  await mkdir(join(root, 'runs', 'r1', 'best'), { recursive: true })
  await writeFile(join(root, 'runs', 'r1', 'train.log'), 'line 1\nline 2\n')
  await writeFile(join(root, 'runs', 'r1', 'best', 'model.safetensors'), Buffer.alloc(64, 7))
  await writeFile(join(root, 'runs', 'r1', 'page.html'), '<script>alert(1)</script>')
  await symlink(join(outside, 'secret.txt'), join(root, 'runs', 'r1', 'leak.txt'))
  await symlink(outside, join(root, 'runs', 'r1', 'leakdir'))
  await symlink(join(root, 'runs', 'r1', 'train.log'), join(root, 'runs', 'r1', 'inner-link.log'))
  await symlink(outside, join(root, 'escape'))
})

afterAll(async () => {
  await server.dispose()
  await rm(outside, { recursive: true, force: true })
})

async function refused(path: string): Promise<{ status: number; code: string; text: string }> {
  const response = await server.call(path)
  const text = await response.text()
  let code = ''
  try {
    code = (JSON.parse(text) as { error: { code: string } }).error.code
  } catch {
    code = ''
  }
  return { status: response.status, code, text }
}

describe('outputs confinement', () => {
  it('lists the root without following links', async () => {
    const response = await server.call('/outputs/ls')
    expect(response.status).toBe(200)
    const body = (await response.json()) as { entries: { path: string; type: string }[] }
    const types = Object.fromEntries(body.entries.map((entry) => [entry.path, entry.type]))
    expect(types['runs/r1/train.log']).toBe('file')
    expect(types['runs/r1/leak.txt']).toBe('symlink')
    expect(types.escape).toBe('symlink')
    expect(body.entries.some((entry) => entry.path.includes('secret'))).toBe(false)
  })

  it('serves a file inside the root, as data', async () => {
    const response = await server.call('/outputs/file?path=runs/r1/train.log')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('line 1\nline 2\n')
    const html = await server.call('/outputs/file?path=runs/r1/page.html')
    expect(html.headers.get('content-type')).toBe('application/octet-stream')
    expect(html.headers.get('content-disposition')).toMatch(/^attachment/)
    expect(html.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it.each([
    ['../', 'path_traversal'],
    ['..%2F..%2Fetc%2Fpasswd', 'path_traversal'],
    ['runs/../../x', 'path_traversal'],
    ['runs/r1/..%5C..%5Csecret', 'path_traversal'],
    ['%2Fetc%2Fpasswd', 'absolute_path'],
    ['/etc/passwd', 'absolute_path'],
    ['runs/%00x', 'invalid_path'],
  ])('refuses %s on every route', async (path, code) => {
    for (const route of ['/outputs/ls', '/outputs/file', '/outputs/archive']) {
      const result = await refused(`${route}?path=${path}`)
      expect(result.status, `${route} ${path}`).toBe(400)
      expect(result.code).toBe(code)
      expect(result.text).not.toContain('top secret')
    }
  })

  it.each([
    ['runs/r1/leak.txt'],
    ['runs/r1/leakdir'],
    ['runs/r1/leakdir/secret.txt'],
    ['escape'],
    ['escape/secret.txt'],
    ['runs/r1/inner-link.log'],
  ])('refuses the symbolic link %s (403) on every route', async (path) => {
    for (const route of ['/outputs/ls', '/outputs/file', '/outputs/archive']) {
      const result = await refused(`${route}?path=${encodeURIComponent(path)}`)
      expect(result.status, `${route} ${path}`).toBe(403)
      expect(result.code).toBe('symlink_refused')
      expect(result.text).not.toContain('top secret')
    }
  })

  it('a missing path is a 404, a folder is not a file', async () => {
    expect((await refused('/outputs/file?path=runs/nope')).status).toBe(404)
    expect((await refused('/outputs/file?path=runs/r1')).code).toBe('not_a_file')
  })

  it('archives a folder as tar.gz without its links', async () => {
    const response = await server.call('/outputs/archive?path=runs/r1')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/gzip')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="r1.tar.gz"')
    const archive = join(outside, 'r1.tar.gz')
    await writeFile(archive, Buffer.from(await response.arrayBuffer()))
    const listing = execFileSync('tar', ['-tzvf', archive], { encoding: 'utf8' })
    expect(listing).toContain('r1/train.log')
    expect(listing).toContain('r1/best/model.safetensors')
    expect(listing).not.toMatch(/leak|inner-link|->/)
    const whole = await server.call('/outputs/archive')
    expect(whole.status).toBe(200)
    await writeFile(archive, Buffer.from(await whole.arrayBuffer()))
    expect(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' })).not.toMatch(/escape|secret/)
  })
})

describe('archives of files as people leave them', () => {
  it('a FIFO, a socket and names that are non-ASCII, not UTF-8 or over 100 bytes: tar -tz lists exactly the files', async () => {
    const folder = join(server.outputs, 'runs', 'odd')
    await mkdir(join(folder, 'sub'), { recursive: true })
    await writeFile(join(folder, 'café.txt'), 'hello café\n')
    await writeFile(Buffer.from(`${folder}/caf\xe9-latin1.txt`, 'latin1'), 'latin-1 name\n')
    const long = `${'long-name-'.repeat(12)}.txt`
    await writeFile(join(folder, 'sub', long), 'long\n')
    await writeFile(join(folder, 'block.bin'), Buffer.alloc(512, 1))
    await writeFile(join(folder, 'empty.txt'), '')
    execFileSync('mkfifo', [join(folder, 'pipe')])
    const socketServer = createServer().listen(join(folder, 'control.sock'))
    await new Promise((resolveListen) => socketServer.once('listening', resolveListen))
    try {
      const response = await server.call('/outputs/archive?path=runs/odd')
      expect(response.status).toBe(200)
      const archive = join(outside, 'odd.tar.gz')
      await writeFile(archive, Buffer.from(await response.arrayBuffer()))
      // GNU tar prints a name that is not UTF-8 with octal escapes (\351 for é in Latin-1).
      const names = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } })
        .trim()
        .split('\n')
        .sort()
      expect(names).toEqual(
        [
          'odd/',
          'odd/block.bin',
          'odd/caf\\351-latin1.txt',
          'odd/café.txt',
          'odd/empty.txt',
          'odd/sub/',
          `odd/sub/${long}`,
        ].sort(),
      )
      const extracted = await mkdtemp(join(outside, 'x-'))
      execFileSync('tar', ['-xzf', archive, '-C', extracted])
      expect(await readFile(join(extracted, 'odd', 'café.txt'), 'utf8')).toBe('hello café\n')
      expect(await readFile(Buffer.from(`${extracted}/odd/caf\xe9-latin1.txt`, 'latin1'), 'utf8')).toBe('latin-1 name\n')
      expect(await readFile(join(extracted, 'odd', 'sub', long), 'utf8')).toBe('long\n')
      expect(await readFile(join(extracted, 'odd', 'block.bin'))).toEqual(Buffer.alloc(512, 1))
    } finally {
      socketServer.close()
    }
  })

  it('HEAD answers the headers without building the archive', async () => {
    const response = await server.call('/outputs/archive?path=runs/r1', { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/gzip')
    expect(await response.text()).toBe('')
  })
})
