// The build's last step: writes dist/env-catalogue.json, which `releaseops env list` prints without
// loading any env (src/cli/commands/env-list.ts).
const { writeEnvCatalogue } = await import('../dist/cli/commands/env-list.js')
await writeEnvCatalogue()
