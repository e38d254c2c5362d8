import { Redacted } from "effect"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Upstream } from "../../../src/demo/upstream/types.ts"
import { startGateway, type TestGateway } from "../gateway.ts"
import { startAnthropicUpstream } from "./anthropic.ts"
import type { ScriptedUpstream } from "./scripted.ts"

const ANTHROPIC_KEY = "sk-ant-api03-parleyDoorTest0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV-AbCdAA"
const OPENAI_KEY = "sk-proj-parleyDoorTest0123456789abcdefghijklmnopqrstuvwxyz"

export interface ProviderGateway {
  /** The scripted Anthropic upstream behind `claude/sonnet`. */
  readonly anthropic: ScriptedUpstream
  /** The scripted OpenAI upstream behind `oa/gpt` (a provider of type `openai`). */
  readonly openai: Upstream
  readonly gateway: TestGateway
  /** A key that may use both. */
  readonly secret: string
  readonly close: () => Promise<void>
}

/**
 * A gateway with an Anthropic model and an OpenAI model, each against a
 * scripted upstream of its own wire: a door's translation to either
 * provider type and back (issue 20 part 6, issue 21 part 5).
 */
export const startProviderGateway = async (): Promise<ProviderGateway> => {
  const anthropic = await startAnthropicUpstream(ANTHROPIC_KEY)
  const openai = await startUpstream({ apiKey: OPENAI_KEY })
  const gateway = await startGateway({
    providers: [
      {
        id: "claude",
        type: "anthropic",
        baseURL: anthropic.url,
        apiKey: Redacted.make(ANTHROPIC_KEY),
        models: [{ id: "sonnet", name: "Sonnet", categories: ["chat"], contextWindow: 200_000, maxOutputTokens: 8_000 }]
      },
      {
        id: "oa",
        type: "openai",
        baseURL: openai.url,
        apiKey: Redacted.make(OPENAI_KEY),
        models: [{ id: "gpt", name: "GPT", categories: ["chat"], contextWindow: 128_000 }]
      }
    ]
  })
  const { secret } = await gateway.createKey()
  return {
    anthropic,
    openai,
    gateway,
    secret,
    close: async () => {
      await gateway.close()
      await anthropic.close()
      await openai.close()
    }
  }
}
