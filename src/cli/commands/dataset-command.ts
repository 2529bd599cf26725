/** @module cli: `releaseops dataset`: write an env's split files (`<split>.jsonl`), each written atomically. */
import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { defaultEnvId, envRegistry } from '../../envs/index.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import { checkOutputDirectory } from '../output-paths.js'

export function registerDatasetCommand(program: CommandUnknownOpts): void {
  const command = program
    .command('dataset')
    .description("Write an env's dataset splits as JSONL files.")
    .option('--env <id>', 'environment id', defaultEnvId)
  addOutDirOption(command, { description: 'output directory', aliases: ['--out'], required: true })
    .option('--splits <names>', 'comma-separated splits (default: all)')
    .action(async (flags) => {
      const options = { ...flags, out: flags.outDir }
      await checkOutputDirectory(options.out, '--out-dir')
      const dataset = envRegistry.get(options.env).dataset
      if (!dataset) {
        throw new InvalidInputError({ code: 'no_dataset', message: `Env ${options.env} generates no dataset.`, issues: [] })
      }
      const splits = options.splits ? options.splits.split(',').map((name) => name.trim()) : [...dataset.splits]
      const files = splits.map((split) => {
        const rows = dataset.rows(split)
        return { split, rows: rows.length, text: rows.map((row) => `${dataset.serializeRow(row)}\n`).join('') }
      })
      await mkdir(options.out, { recursive: true })
      for (const file of files) {
        const target = join(options.out, `${file.split}.jsonl`)
        await writeFile(`${target}.tmp`, file.text)
        await rename(`${target}.tmp`, target)
        const sha256 = createHash('sha256').update(file.text).digest('hex')
        process.stdout.write(`${target}\t${file.rows} rows\tsha256 ${sha256}\n`)
      }
    })
}
