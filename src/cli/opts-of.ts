/** @module cli: the flags of a command, as commander's typings infer them from its option declarations. */
import type { Command } from '@commander-js/extra-typings'

/**
 * The options type of a command built with `@commander-js/extra-typings`: an action, or a function it
 * calls, that takes `OptsOf<typeof command>` cannot read a flag the command does not declare (decision 0070).
 */
export type OptsOf<C> = C extends Command<infer _Args, infer Opts, infer _Global> ? Opts : never
