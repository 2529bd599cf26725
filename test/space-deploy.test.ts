/**
 * The Space deployment as a newcomer does it, without Docker (no engine runs here). The Space README's
 * copy steps, run verbatim in a scratch Space directory, give a build context in which every COPY source
 * of the chosen Dockerfile exists and survives .dockerignore; the CPU steps choose Dockerfile.cpu. The
 * Space opens on the dashboard. And the image's outputs are writable as its user: the server, run as
 * uid 1000 (the image's `node`) with the image's RELEASEOPS_OUTPUTS_DIR in a folder made as the
 * Dockerfile's RUN makes it, lists its outputs and runs an eval job; in a root-owned folder (the old
 * image) it answers the coded `outputs_not_writable`, not `internal_error`.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copySources, finalStage, ignoredPatterns, parseDockerfile, stageEnvironment } from './support/dockerfile-instructions.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { getJson, spawnServer } from './support/test-server.js'

const read = (path: string) => readFileSync(resolve(repositoryRoot, path), 'utf8')
const spaceReadme = read('deploy/space/README.md')

/** The README's bash blocks that write the Space's Dockerfile, each with the paragraph before it. */
function deploySteps(): { intro: string; script: string }[] {
  return [...spaceReadme.matchAll(/([^\n]+)\n\n```bash\n([\s\S]*?)```/g)]
    .map((match) => ({ intro: match[1] as string, script: match[2] as string }))
    .filter((block) => block.script.includes('"$SPACE/Dockerfile"'))
}

describe('Space README: the deploy steps, done verbatim', () => {
  const steps = deploySteps()

  it('has a CPU Space step that uses Dockerfile.cpu as the Dockerfile, and a GPU one', () => {
    expect(steps.map((step) => /\*\*(CPU|GPU) Space\*\*/.exec(step.intro)?.[1])).toEqual(['CPU', 'GPU'])
    expect(steps[0]?.intro).toContain('must use `Dockerfile.cpu` as its `Dockerfile`')
  })

  it.each([
    ['CPU', 'Dockerfile.cpu'],
    ['GPU', 'Dockerfile'],
  ])('%s: every COPY source of the chosen Dockerfile is in the Space and kept by its .dockerignore', (kind, dockerfile) => {
    const step = steps.find((item) => item.intro.includes(`**${kind} Space**`))
    if (!step) throw new Error(`no ${kind} step`)
    const space = temporaryDirectory(`space-${kind}`)
    execFileSync('bash', ['-euo', 'pipefail', '-c', step.script], {
      cwd: repositoryRoot,
      env: { ...process.env, SPACE: space },
    })
    expect(readFileSync(join(space, 'Dockerfile'), 'utf8')).toBe(read(dockerfile))
    expect(readFileSync(join(space, 'README.md'), 'utf8')).toBe(spaceReadme)
    const sources = copySources(parseDockerfile(readFileSync(join(space, 'Dockerfile'), 'utf8')))
    expect(sources.length).toBeGreaterThan(8)
    const ignored = ignoredPatterns(space)
    for (const source of sources) {
      expect(existsSync(join(space, source)), `${kind}: COPY ${source}`).toBe(true)
      expect(
        ignored.some((pattern) => pattern.test(source)),
        `${kind}: COPY ${source} is ignored`,
      ).toBe(false)
    }
  })

  it('opens the Space on the dashboard (/ui/), not on the API docs', () => {
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(spaceReadme)?.[1] ?? ''
    expect(/^base_path:\s*(\S+)$/m.exec(frontMatter)?.[1]).toBe('/ui/')
  })
})

/** A scratch folder the image's user can enter (mkdtemp makes 0700 ones). */
function scratchRoot(label: string): string {
  const folder = temporaryDirectory(label)
  chmodSync(folder, 0o755)
  return folder
}

/** The server (from source) as the image's user (uid 1000) when this runs as root, else as this user. */
const asRoot = process.getuid?.() === 0
const imageUser = asRoot ? ['setpriv', '--reuid=1000', '--regid=1000', '--clear-groups'] : []

const operator = { authorization: 'Bearer operator-secret-0123456789' }

async function serveWithOutputs(outputs: string) {
  const command = [
    ...imageUser,
    process.execPath,
    '--import',
    'tsx',
    'src/cli/run.ts',
    'serve',
    '--port',
    '0',
    '--env',
    'releaseops-v3',
  ]
  return spawnServer([], {
    command,
    env: { HOST: '127.0.0.1', RELEASEOPS_OUTPUTS_DIR: outputs, RELEASEOPS_OPERATOR_TOKEN: 'operator-secret-0123456789' },
  })
}

describe('Dockerfile.cpu: outputs writable as the image user', () => {
  const final = finalStage(parseDockerfile(read('Dockerfile.cpu')))
  const outputs = stageEnvironment(final).RELEASEOPS_OUTPUTS_DIR as string

  it('lists outputs and runs an eval job into them', async () => {
    // The image's `RUN mkdir -p /data/outputs && chown -R node:node /data`, under a scratch root.
    const data = join(scratchRoot('image-root'), 'data')
    mkdirSync(join(data, outputs.replace(/^\/data\//, '')), { recursive: true })
    if (asRoot) execFileSync('chown', ['-R', '1000:1000', data])
    const server = await serveWithOutputs(join(data, outputs.replace(/^\/data\//, '')))
    try {
      const listing = await getJson(`${server.url}/outputs/ls`, operator)
      expect(listing.status).toBe(200)
      const started = await fetch(`${server.url}/api/eval`, {
        method: 'POST',
        headers: { ...operator, 'content-type': 'application/json' },
        body: JSON.stringify({ env_id: 'releaseops-v3', split: 'eval', policies: ['naive'], max_rows: 2 }),
      })
      expect(started.status).toBe(202)
      let status: { state: string; summary_path: string; error: unknown } | undefined
      for (let attempt = 0; attempt < 100; attempt++) {
        const reply = await fetch(`${server.url}/api/eval`, { headers: operator })
        status = (await reply.json()) as typeof status
        if (status?.state !== 'running') break
        await new Promise((done) => setTimeout(done, 100))
      }
      expect(status).toMatchObject({ state: 'succeeded', error: null })
      const written = join(data, outputs.replace(/^\/data\//, ''), status?.summary_path as string)
      expect(JSON.parse(readFileSync(written, 'utf8'))).toHaveProperty('naive')
    } finally {
      await server.stop()
    }
  }, 60_000)

  it('a root-owned folder (the old image: /app) is a coded 503, not internal_error', async () => {
    const app = join(scratchRoot('image-root-old'), 'app')
    mkdirSync(app)
    chmodSync(app, 0o555)
    if (asRoot) chownSync(app, 0, 0)
    const server = await serveWithOutputs(join(app, 'outputs'))
    try {
      const listing = await getJson(`${server.url}/outputs/ls`, operator)
      expect(listing.status).toBe(503)
      expect(listing.json.error).toMatchObject({ code: 'outputs_not_writable', path: join(app, 'outputs') })
      expect(listing.json.error.message).toContain('RELEASEOPS_OUTPUTS_DIR')
    } finally {
      await server.stop()
      chmodSync(app, 0o755)
    }
  }, 60_000)
})
