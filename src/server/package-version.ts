/** @module server: the package version, read once from package.json (the same path from src/ and dist/). */
import { readFileSync } from 'node:fs'

export const packageVersion: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version

/** The OpenEnv HTTP API profile we implement; `openenv validate` reads `1.x` from the OpenAPI version. */
export const openEnvApiVersion = '1.0.0'
