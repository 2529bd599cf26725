/** Home: links to the pages and what this server serves (envs, auth, the route index). */
import { api, el, notice, renderHeader, table } from './common.js'

renderHeader('index.html')
const node = document.getElementById('server')
api('/')
  .then((index) => {
    node.replaceChildren(
      el('p', {}, `releaseops ${index.version} · default env ${index.default_env} · auth: ${index.auth}`),
      table(
        [
          ['env', (env) => env.id],
          ['base', (env) => env.base],
          ['default', (env) => (env.default ? 'yes' : '')],
        ],
        index.envs,
      ),
      el('p', {}, el('a', { href: '/docs' }, 'API documentation (OpenAPI)')),
    )
  })
  .catch((error) => notice(node, 'error', String(error.message ?? error)))
