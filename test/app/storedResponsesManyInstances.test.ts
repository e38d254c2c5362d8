import { it } from "@effect/vitest"
import OpenAI from "openai"
import { expect } from "vitest"
import { describePostgres } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import { openAiClient } from "../support/openaiTools.ts"
import { closeAll, inFreshSchema, startInstances } from "./instances.ts"

/**
 * A response stored through one instance is read, continued and deleted
 * through the others (docs/DESIGN.md §14): it is kept in the database they share.
 */
describePostgres("stored responses on many instances (issue 23 part 4)", () => {
  it.live("a response stored at one instance is retrieved, continued and deleted at the others", () =>
    inFreshSchema(async (url) => {
      const gateways = await startInstances([url, url, url])
      try {
        const [first, second, third] = gateways as [TestGateway, TestGateway, TestGateway]
        const { secret } = await first.createKey()
        first.upstream.enqueue({ type: "text", text: "Stored at the first." })
        const created = await openAiClient(first, secret).responses.create({ model: "test/m1", input: "Hi" })

        expect(await openAiClient(second, secret).responses.retrieve(created.id)).toEqual(created)
        const items = await openAiClient(third, secret).responses.inputItems.list(created.id)
        expect(items.data).toMatchObject([{ type: "message", role: "user", content: [{ text: "Hi" }] }])

        second.upstream.enqueue({ type: "text", text: "Continued at the second." })
        const next = await openAiClient(second, secret).responses.create({
          model: "test/m1",
          previous_response_id: created.id,
          input: "Go on"
        })
        expect(next.output_text).toBe("Continued at the second.")
        const sent = second.upstream.requests.at(-1)!.body.messages.filter((message: any) => message.role !== "system")
        expect(sent.map((message: any) => message.content)).toEqual(["Hi", "Stored at the first.", "Go on"])

        await openAiClient(third, secret).responses.delete(created.id)
        await expect(openAiClient(first, secret).responses.retrieve(created.id)).rejects.toBeInstanceOf(
          OpenAI.NotFoundError
        )
        expect((await openAiClient(first, secret).responses.retrieve(next.id)).id).toBe(next.id)
      } finally {
        await closeAll(gateways)
      }
    }))
})
