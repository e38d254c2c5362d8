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
