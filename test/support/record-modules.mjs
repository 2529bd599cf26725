import { register } from 'node:module'

register(new URL('./record-module-urls.mjs', import.meta.url))
