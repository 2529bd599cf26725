/** @module envs: the env every command uses when none is named, in a module of its own so a command can
 * name it in its options without loading any env. */
export const defaultEnvId = 'releaseops-v3'
