import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { publishDirectory } from './publish-directory.js'

const root = () => mkdtempSync(join(tmpdir(), 'releaseops-publish-'))

describe('publishDirectory', () => {
  it('builds beside the target and renames it into place, leaving no staging directory', async () => {
    const parent = root()
    const target = join(parent, 'release')
    await publishDirectory({ target, build: (staging) => writeFileSync(join(staging, 'a.txt'), 'a') })
    expect(readdirSync(parent)).toEqual(['release'])
    expect(readFileSync(join(target, 'a.txt'), 'utf8')).toBe('a')
  })

  it('a failing build publishes nothing and cleans up', async () => {
    const parent = root()
    const target = join(parent, 'release')
    await expect(
      publishDirectory({
        target,
        build(staging) {
          writeFileSync(join(staging, 'half.txt'), 'half')
          throw new Error('validation failed')
        },
      }),
    ).rejects.toThrow('validation failed')
    expect(readdirSync(parent)).toEqual([])
  })

  it('never overwrites a non-empty target, accepts an empty one, replaces only when asked', async () => {
    const parent = root()
    const target = join(parent, 'release')
    mkdirSync(target)
    await publishDirectory({ target, build: (staging) => writeFileSync(join(staging, 'first.txt'), '1') })
    await expect(
      publishDirectory({ target, build: (staging) => writeFileSync(join(staging, 'second.txt'), '2') }),
    ).rejects.toMatchObject({ code: 'output_exists' })
    expect(readdirSync(target)).toEqual(['first.txt'])
    await publishDirectory({ target, replace: true, build: (staging) => writeFileSync(join(staging, 'second.txt'), '2') })
    expect(readdirSync(target)).toEqual(['second.txt'])
    expect(readdirSync(parent)).toEqual(['release'])
    writeFileSync(join(parent, 'file'), 'x')
    await expect(publishDirectory({ target: join(parent, 'file'), build: () => {} })).rejects.toMatchObject({
      code: 'output_exists',
    })
    expect(existsSync(join(parent, 'file'))).toBe(true)
  })
})
