import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import {
  browserTests,
  integrationInclude,
  outOfProcessUnitTests,
  pythonTests,
  unitInclude,
} from './test/support/test-projects.js'

// Four projects (decision 0057): `npm run test:unit` is the fast loop, `npm test` runs them all.
const elsewhere = [...pythonTests, ...browserTests]

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, where most test time
    // is spent waiting on child processes. Two workers there: `npm test` 867 s → 529 s (decision 0061).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Hang guards, not speed claims (issue 37 item 7): on a busy machine (load 20–47 on 2 cores) honest
    // tests took minutes where they take seconds quiet; speed belongs in bench/.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // In-process tests that mock nothing and register nothing global share one module graph per
          // worker instead of importing it again for every file.
          isolate: false,
          include: unitInclude,
          exclude: [...configDefaults.exclude, ...elsewhere, ...outOfProcessUnitTests],
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: integrationInclude, exclude: [...configDefaults.exclude, ...elsewhere] },
      },
      { extends: true, test: { name: 'python', include: pythonTests } },
      { extends: true, test: { name: 'browser', include: browserTests } },
    ],
  },
})
