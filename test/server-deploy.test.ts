/**
 * Deployment files (no Docker engine runs here, so: what can be checked without one). The OpenEnv
 * manifest has its fields, the Dockerfile, manifest and Space README agree on the port, and the
 * Dockerfile's own CMD and HEALTHCHECK, run as written, start the server and find it healthy.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/run-cli.js'
import { getJson, spawnServer } from './support/test-server.js'

const read = (path: string) => readFileSync(resolve(repositoryRoot, path), 'utf8')

/** `key: value` lines of a flat YAML document (comments and blank lines skipped). */
function flatYaml(text: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (match) fields[match[1] as string] = (match[2] as string).trim()
  }
  return fields
}

/** The JSON-array form of a Dockerfile instruction (`CMD [...]`, `HEALTHCHECK ... CMD [...]`). */
function execForm(line: string | undefined): string[] {
  const json = line?.slice(line.indexOf('CMD [') + 4)
  return JSON.parse(json ?? '[]') as string[]
}

const dockerfile = read('Dockerfile')
const instruction = (name: string) => dockerfile.split('\n').filter((line) => line.startsWith(`${name} `))

describe('openenv.yaml', () => {
  it('has spec_version 1, name, type space, runtime, app and port', () => {
    const manifest = flatYaml(read('openenv.yaml'))
    expect(manifest).toMatchObject({ spec_version: '1', name: 'releaseops', type: 'space', runtime: 'node', port: '8000' })
    expect(manifest.app).toBe(execForm(instruction('CMD').at(-1)).join(' '))
  })
})

describe('Hugging Face Space README', () => {
  it('front matter: sdk docker, app_port = the manifest port, tags include openenv', () => {
    const text = read('deploy/space/README.md')
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? ''
    const fields = flatYaml(frontMatter)
    expect(fields.sdk).toBe('docker')
    expect(fields.app_port).toBe(flatYaml(read('openenv.yaml')).port)
    expect(frontMatter).toMatch(/tags:\n(\s+- .+\n)*\s+- openenv\n/)
  })
})

describe('Dockerfile', () => {
  it('exposes the manifest port, defaults HOST/PORT for a container, health-checks /health', () => {
    const port = flatYaml(read('openenv.yaml')).port
    expect(instruction('EXPOSE').at(-1)).toBe(`EXPOSE ${port}`)
    expect(dockerfile).toMatch(new RegExp(`ENV .*HOST=0\\.0\\.0\\.0 PORT=${port}`))
    expect(instruction('HEALTHCHECK').at(-1)).toContain('/health')
  })

  it('its CMD starts the server and its HEALTHCHECK passes against it', async () => {
    expect(
      existsSync(resolve(repositoryRoot, 'dist/cli/commands/serve-command.js')),
      'run `npm run build` first (npm ci does)',
    ).toBe(true)
    const command = execForm(instruction('CMD').at(-1))
    expect(command).toEqual(['node', 'bin/releaseops.js', 'serve'])
    const server = await spawnServer([], {
      command: [process.execPath, ...command.slice(1)],
      env: { HOST: '127.0.0.1', PORT: '0' },
    })
    try {
      const { json } = await getJson(`${server.url}/health`)
      expect(json.status).toBe('healthy')
      const port = new URL(server.url).port
      const healthcheck = execForm(instruction('HEALTHCHECK').at(-1))
      const code = await new Promise<number | null>((resolveCheck) => {
        const child = spawn(process.execPath, healthcheck.slice(1), { env: { ...process.env, PORT: port } })
        child.on('close', resolveCheck)
      })
      expect(code).toBe(0)
    } finally {
      await server.stop()
    }
    const failing = await new Promise<number | null>((resolveCheck) => {
      const child = spawn(process.execPath, execForm(instruction('HEALTHCHECK').at(-1)).slice(1), {
        env: { ...process.env, PORT: '1' },
      })
      child.on('close', resolveCheck)
    })
    expect(failing).toBe(1)
  })
})
