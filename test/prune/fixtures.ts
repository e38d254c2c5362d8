/** Fixed texts of the kinds a conversation carries, to check counts against the tokenizers. */
export const fixtures = {
  english: "Hi! I'm looking for a senior backend engineer in Berlin, ideally with Go and PostgreSQL experience. " +
    "Could you draft a friendly first message to the candidates we shortlisted yesterday?",
  french: "Bonjour, je cherche un poste de développeur à Lyon. Pouvez-vous m'envoyer les offres qui correspondent ?",
  chinese: "你好，我们正在招聘一名高级后端工程师，工作地点在上海，需要五年以上的经验。",
  code:
    "export const sum = (values: ReadonlyArray<number>): number =>\n  values.reduce((total, value) => total + value, 0)\n",
  json: JSON.stringify({
    command: "ls -la /work",
    timeout_ms: 5000,
    env: { LANG: "C.UTF-8" },
    args: ["--color=never"]
  }),
  logs: "2025-03-14T09:26:53.589Z INFO  request_id=7f3a status=200 latency_ms=42 path=/api/v1/chat\n" +
    "2025-03-14T09:26:54.001Z WARN  request_id=7f3b status=429 retry_after=2 provider=openai\n"
}
