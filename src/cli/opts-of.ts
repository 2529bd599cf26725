/** @module cli: the flags of a command, as commander's typings infer them from its option declarations. */
/**
 * The options type of a command built with `@commander-js/extra-typings` (what its `opts()` returns): an action, or a function it
 * calls, that takes `OptsOf<typeof command>` cannot read a flag the command does not declare (decision 0070).
 */
export type OptsOf<C extends { opts(): unknown }> = ReturnType<C['opts']>
