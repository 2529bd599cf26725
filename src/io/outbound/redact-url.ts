/**
 * @module io/outbound: a URL as it may be recorded (episodes, summaries, status, logs, error messages):
 * credentials in it (`user:pass@`) and the values of query parameters that look like secrets (`key`,
 * `token`, `secret`, `password`, `signature`) become `***`.
 */
const secretParameter = /key|token|secret|passw|sig|auth/i

export function redactUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // Not a URL: still hide what looks like `scheme://user:pass@`.
    return text.replace(/(\/\/)[^/@\s]*@/g, '$1***@')
  }
  const secrets = [...url.searchParams.keys()].filter((name) => secretParameter.test(name))
  // Nothing to hide: the text as given (a recorded URL keeps its spelling, and so its hashes).
  if (url.username === '' && url.password === '' && secrets.length === 0) return text
  if (url.username !== '' || url.password !== '') {
    url.username = '***'
    url.password = ''
  }
  for (const name of secrets) url.searchParams.set(name, '***')
  return url.href
}
