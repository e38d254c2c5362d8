import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai"

/**
 * Sends a conversation through the AI SDK's own client transport (what
 * `useChat` uses) and reads the answer with `readUIMessageStream`.
 */
export const chatThroughAiSdk = async (
  url: string,
  secret: string,
  messages: Array<UIMessage>,
  body: Record<string, unknown>
): Promise<{ readonly message: UIMessage | undefined; readonly chunks: ReadonlyArray<UIMessageChunk> }> => {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${url}/api/v1/chat`,
    headers: { authorization: `Bearer ${secret}` },
    body
  })
  const stream = await transport.sendMessages({
    chatId: "chat-1",
    messages,
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined
  })
  const chunks: Array<UIMessageChunk> = []
  const recorded = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk)
        controller.enqueue(chunk)
      }
    })
  )
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream<UIMessage>({ stream: recorded })) message = snapshot
  return { message, chunks }
}

/** Drops ids that are generated per run, so two runs of one script compare equal. */
export const withoutIds = (message: unknown): unknown =>
  JSON.parse(JSON.stringify(message, (key, value) => (key === "id" || key === "toolCallId" ? undefined : value)))
