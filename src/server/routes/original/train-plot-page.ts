import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags } from './original-route-context.js'

/** `GET /train/plot`: an auto-refreshing page around `/train/plot.png`. */
export const trainPlotPage: RouteModule<OriginalRoutesOptions> = (app) => {
  app.get(
    '/train/plot',
    {
      config: { access: 'operator' },
      schema: { summary: 'An auto-refreshing page showing /train/plot.png.', tags: originalTags },
    },
    (_request, reply) => {
      reply.type('text/html; charset=utf-8')
      return plotPage
    },
  )
}

const plotPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="10"><title>ReleaseOps GRPO training</title></head>
<body style="font-family: system-ui, sans-serif; margin: 1rem"><h1 style="font-size: 1.1rem">ReleaseOps GRPO training</h1>
<img src="/train/plot.png" alt="reward, loss, tool-call and rejected-call rates of the current run" style="max-width: 100%">
<p><a href="/train/status">status</a> · <a href="/train/logs">logs</a> · <a href="/train/metrics?format=original">metrics</a> · <a href="/ui/">dashboard</a></p>
</body></html>
`
