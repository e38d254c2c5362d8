/**
 * A framework-free chat page on the AI SDK's own `Chat` machinery (as
 * `useChat({ resume: true })` wraps it): it asks for resumable runs
 * (`onDisconnect: "continue"`, docs/DESIGN.md §16) and, on load, resumes the
 * chat named in the URL, as `useChat` does on mount. Bundled by the test.
 */
import { DefaultChatTransport } from "ai"
import { PageChat, sendOnClick, showStatus } from "../../support/pageChat.ts"

let render = () => {}

const params = new URLSearchParams(location.hash.slice(1))
const key = params.get("key") ?? ""
const chat = new PageChat({
  id: params.get("chat") ?? "chat",
  transport: new DefaultChatTransport({
    api: "/api/v1/chat",
    headers: { authorization: `Bearer ${key}` },
    body: { model: "test/m1", stream: true, onDisconnect: "continue" }
  })
}, () => render())

const element = (tag: string, text: string, className: string) => {
  const node = document.createElement(tag)
  node.textContent = text
  node.className = className
  return node
}

const log = document.getElementById("log")!
render = () => {
  const { messages } = chat.view
  log.replaceChildren(...messages.map((message) =>
    element(
      "div",
      message.parts.map((part) => part.type === "text" ? part.text : "").join(""),
      `message ${message.role}`
    )
  ))
  showStatus(chat)
}

sendOnClick(chat)
render()
// As useChat({ resume: true }) on mount: the run of this chat, if one is kept, from its start.
void chat.resumeStream()
