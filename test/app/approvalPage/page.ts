/**
 * A framework-free chat page on the AI SDK's own `Chat` machinery
 * (`AbstractChat`, as `useChat` wraps it): approve / deny buttons for tool
 * calls that wait for a person (docs/DESIGN.md §10). Bundled by the test.
 */
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai"
import { PageChat, sendOnClick, showStatus } from "../../support/pageChat.ts"

let render = () => {}

const key = new URLSearchParams(location.hash.slice(1)).get("key") ?? ""
const chat = new PageChat({
  transport: new DefaultChatTransport({
    api: "/api/v1/chat",
    headers: { authorization: `Bearer ${key}` },
    body: { model: "test/m1", stream: true, allowedTools: ["dangerous"] }
  }),
  // After every approval request is answered, send the conversation back: parley runs or denies the calls.
  sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses
}, () => render())

const element = (tag: string, text?: string, className?: string) => {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className !== undefined) node.className = className
  return node
}

const button = (label: string, onClick: () => void) => {
  const node = element("button", label)
  node.addEventListener("click", onClick)
  return node
}

const toolView = (part: Extract<UIMessage["parts"][number], { type: "dynamic-tool" }>) => {
  const box = element("div", undefined, `tool ${part.state}`)
  box.append(element("code", `${part.toolName}(${JSON.stringify(part.input)})`))
  switch (part.state) {
    case "approval-requested":
      box.append(
        element("span", " waits for your approval "),
        button("Approve", () => void chat.addToolApprovalResponse({ id: part.approval.id, approved: true })),
        button("Deny", () => void chat.addToolApprovalResponse({ id: part.approval.id, approved: false }))
      )
      break
    case "approval-responded":
      box.append(element("span", part.approval.approved ? " approved, running…" : " denied"))
      break
    case "output-available":
      box.append(element("div", `Output: ${JSON.stringify(part.output)}`, "output"))
      break
    case "output-denied":
      box.append(element("div", "Denied", "output"))
      break
    case "output-error":
      box.append(element("div", `Error: ${part.errorText}`, "output"))
      break
    default:
      box.append(element("span", ` ${part.state}`))
  }
  return box
}

const log = document.getElementById("log")!
render = () => {
  const { messages } = chat.view
  log.replaceChildren(...messages.map((message) => {
    const row = element("div", undefined, `message ${message.role}`)
    row.append(element("strong", `${message.role}: `))
    for (const part of message.parts) {
      if (part.type === "text") row.append(element("span", part.text, "text"))
      if (part.type === "dynamic-tool") row.append(toolView(part))
    }
    return row
  }))
  showStatus(chat)
}

sendOnClick(chat)
render()
