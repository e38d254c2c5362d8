/**
 * The AI SDK's own `Chat` machinery (`AbstractChat`, as `useChat` wraps it)
 * for framework-free test pages, bundled into them: its state calls
 * `changed` on every change, where a page renders.
 */
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai"

class PageState implements ChatState<UIMessage> {
  private current: ChatStatus = "ready"
  error: Error | undefined = undefined
  messages: Array<UIMessage> = []
  private readonly changed: () => void
  constructor(changed: () => void) {
    this.changed = changed
  }
  get status() {
    return this.current
  }
  set status(status: ChatStatus) {
    this.current = status
    this.changed()
  }
  pushMessage = (message: UIMessage) => {
    this.messages = this.messages.concat(message)
    this.changed()
  }
  popMessage = () => {
    this.messages = this.messages.slice(0, -1)
    this.changed()
  }
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)]
    this.changed()
  }
  snapshot = <T>(thing: T): T => structuredClone(thing)
}

export class PageChat extends AbstractChat<UIMessage> {
  constructor(init: Omit<ChatInit<UIMessage>, "messages">, changed: () => void) {
    super({ ...init, state: new PageState(changed) })
  }
  get view() {
    return this.state
  }
}

/** The page's `#status`: the chat's status, or its error. */
export const showStatus = (chat: PageChat) => {
  const { error, status } = chat.view
  document.getElementById("status")!.textContent = error === undefined ? status : `error: ${error.message}`
}

/** `#send` sends what `#input` holds. */
export const sendOnClick = (chat: PageChat) =>
  document.getElementById("send")!.addEventListener("click", () => {
    const input = document.getElementById("input") as HTMLInputElement
    void chat.sendMessage({ text: input.value })
    input.value = ""
  })
