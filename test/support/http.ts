/** Small fetch helpers for tests that talk to the started gateway. */
export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

export const chatBody = (overrides: Record<string, unknown> = {}) => ({
  model: "test/m1",
  messages: [{ role: "user", content: "Hello there" }],
  stream: false,
  ...overrides
})

/** `parley_limit_refusals_total` of a limit in a scope, from a gateway whose /metrics is public (0 before any). */
export const limitRefusals = async (gatewayUrl: string, limit: string, scope: "key" | "account" = "key") => {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text()
  const line = text.split("\n").find((l) =>
    l.startsWith(`parley_limit_refusals_total{limit="${limit}",scope="${scope}"} `)
  )
  return line === undefined ? 0 : Number(line.split(" ").at(-1))
}
