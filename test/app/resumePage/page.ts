/**
 * A framework-free chat page on the AI SDK's own `Chat` machinery (as
 * `useChat({ resume: true })` wraps it): it asks for resumable runs
 * (`onDisconnect: "continue"`, docs/DESIGN.md §16) and, on load, resumes the
 * chat named in the URL, as `useChat` does on mount. Bundled by the test.
 */
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, DefaultChatTransport, type UIMessage } from "ai"

let render = () => {}

class PageState implements ChatState<UIMessage> {
  private current: ChatStatus = "ready"
  error: Error | undefined = undefined
  messages: Array<UIMessage> = []
  get status() {
    return this.current
  }
  set status(status: ChatStatus) {
    this.current = status
    render()
  }
  pushMessage = (message: UIMessage) => {
    this.messages = this.messages.concat(message)
    render()
  }
  popMessage = () => {
    this.messages = this.messages.slice(0, -1)
    render()
  }
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)]
    render()
  }
  snapshot = <T>(thing: T): T => structuredClone(thing)
}

class Chat extends AbstractChat<UIMessage> {
  constructor(init: Omit<ChatInit<UIMessage>, "messages">) {
    super({ ...init, state: new PageState() })
  }
  get view() {
    return this.state
  }
}

const params = new URLSearchParams(location.hash.slice(1))
const key = params.get("key") ?? ""
const chat = new Chat({
  id: params.get("chat") ?? "chat",
  transport: new DefaultChatTransport({
    api: "/api/v1/chat",
    headers: { authorization: `Bearer ${key}` },
    body: { model: "test/m1", stream: true, onDisconnect: "continue" }
  })
})

const element = (tag: string, text: string, className: string) => {
  const node = document.createElement(tag)
  node.textContent = text
  node.className = className
  return node
}

const log = document.getElementById("log")!
render = () => {
  const { error, messages, status } = chat.view
  log.replaceChildren(...messages.map((message) =>
    element(
      "div",
      message.parts.map((part) => part.type === "text" ? part.text : "").join(""),
      `message ${message.role}`
    )
  ))
  document.getElementById("status")!.textContent = error === undefined ? status : `error: ${error.message}`
}

document.getElementById("send")!.addEventListener("click", () => {
  const input = document.getElementById("input") as HTMLInputElement
  void chat.sendMessage({ text: input.value })
  input.value = ""
})
render()
// As useChat({ resume: true }) on mount: the run of this chat, if one is kept, from its start.
void chat.resumeStream()
