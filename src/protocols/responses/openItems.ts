import type { JsonTemplate } from "../jsonTemplate.ts"
import {
  argumentsDone,
  itemAdded,
  itemDone,
  type ItemEvent,
  messageItem,
  messageItemJson,
  type OutputItem,
  outputText,
  outputTextJson,
  partDone,
  summaryDone,
  summaryPartDone,
  summaryText,
  textDone
} from "./itemEvents.ts"
import { type CallOutcome, mcpCallDone } from "./mcpItems.ts"

/** The delta event of an item of one kind: its id, its index, the delta (JSON texts). */
export type DeltaEvent = JsonTemplate<readonly [unknown, unknown, unknown]>

/** An item the stream opened and has not closed: what its events and its closing need. */
export interface OpenItem {
  readonly index: number
  readonly item: OutputItem
  /** The item's id and index as JSON texts: the holes of each of its events. */
  readonly idJson: string
  readonly indexJson: string
  /** Its delta event, the delta's JSON text to fill in. */
  readonly delta: JsonTemplate<readonly [unknown]>
  text: string
  streamed: boolean
  encrypted?: string | undefined
  outcome?: CallOutcome | undefined
}

/** An item as it closed: its last events before `response.output_item.done`, and the item done (with its JSON when known). */
interface ClosedItem {
  readonly events: ReadonlyArray<ItemEvent>
  readonly item: OutputItem
  readonly json?: string | undefined
}

/** How an open item ends: `status` `completed`, or `incomplete` for a run that failed or broke off. */
const closeItem = (open: OpenItem, status: string, withEncrypted: boolean): ClosedItem => {
  const { encrypted, idJson, indexJson, item, text } = open
  switch (item.type) {
    case "message": {
      // The text is in three events and in the response that ends the stream: it is stringified once.
      const textJson = JSON.stringify(text)
      const part = outputTextJson.fill(textJson)
      return {
        events: [textDone.fill(idJson, indexJson, textJson), partDone.fill(idJson, indexJson, part)],
        item: messageItem(item.id, status, [outputText(text)]),
        json: messageItemJson.fill(idJson, JSON.stringify(status), `[${part}]`)
      }
    }
    case "reasoning": {
      const summary = text === "" ? [] : [summaryText(text)]
      const events = summary.length === 0 ? [] : [
        summaryDone.fill(idJson, indexJson, JSON.stringify(text)),
        summaryPartDone.fill(idJson, indexJson, JSON.stringify(summary[0]))
      ]
      const kept = withEncrypted && encrypted !== undefined ? { encrypted_content: encrypted } : {}
      return { events, item: { ...item, summary, ...kept } }
    }
    case "mcp_call": {
      const [finished, event] = mcpCallDone(item, idJson, indexJson, text, open.outcome)
      return { events: [event], item: finished }
    }
    default:
      return {
        events: [argumentsDone.fill(idJson, indexJson, JSON.stringify(item.name), JSON.stringify(text))],
        item: { ...item, status, arguments: text }
      }
  }
}

/**
 * The answer's items as they open and close: it numbers them, gives each
 * its id (`kind`, the answer's `prefix`, its index) and keeps the finished
 * ones, which are the response's `output`, each with its JSON text (the
 * stream writes an item twice: done, and in the response that ends it).
 */
export class OpenItems {
  private readonly prefix: string
  private readonly withEncrypted: boolean
  // Open items by what opened them: `t`, `r`, `c` or `m` and a text, reasoning or tool call id.
  protected readonly open = new Map<string, OpenItem>()
  readonly output: Array<OutputItem> = []
  readonly outputJson: Array<string> = []
  private next = 0
  // The text item the last delta went to, and its chunk id: a text's deltas come one after another.
  private lastText: OpenItem | undefined
  private lastTextId = ""

  /**
   * `prefix` makes the items' ids unique to the answer (the correlation id);
   * `withEncrypted`: reasoning items carry `encrypted_content` (`include` asked for it).
   */
  constructor(prefix: string, withEncrypted: boolean) {
    this.prefix = prefix
    this.withEncrypted = withEncrypted
  }

  /** Ends the items still open (a run that failed or broke off), as incomplete. */
  closeAll(status = "completed"): ReadonlyArray<ItemEvent> {
    return [...this.open.keys()].flatMap((key) => this.close(key, status))
  }

  /**
   * A text delta of a message item already open, as its event: most of a
   * text answer's events, which its stream takes without the arrays of
   * `events` (BENCHMARKS.md).
   */
  appendText(id: string, delta: string): ItemEvent | undefined {
    const found = this.lastText !== undefined && id === this.lastTextId ? this.lastText : this.open.get(`t${id}`)
    if (found === undefined) return undefined
    this.lastText = found
    this.lastTextId = id
    found.text += delta
    return found.delta.fill(JSON.stringify(delta))
  }

  /** The next index, and an item id made of it. */
  protected index(kind: string): [number, string] {
    const index = this.next++
    return [index, `${kind}_${this.prefix}_${index}`]
  }

  /** The item `key` names, opened now (with its `output_item.added` event) unless it was open. */
  protected opened(
    key: string,
    kind: string,
    item: (id: string) => OutputItem,
    delta: DeltaEvent
  ): [ItemEvent | undefined, OpenItem] {
    const found = this.open.get(key)
    if (found !== undefined) return [undefined, found]
    const open = this.start(key, kind, item, delta)
    return [itemAdded.fill(open.indexJson, JSON.stringify(open.item)), open]
  }

  /** A new item, without its `output_item.added` event (its caller writes it). */
  protected start(key: string, kind: string, item: (id: string) => OutputItem, delta: DeltaEvent): OpenItem {
    const [index, id] = this.index(kind)
    const made = item(id)
    const [idJson, indexJson] = [JSON.stringify(made.id), `${index}`]
    const open = {
      index,
      item: made,
      idJson,
      indexJson,
      delta: delta.with(idJson, indexJson),
      text: "",
      streamed: false
    }
    this.open.set(key, open)
    return open
  }

  protected close(key: string, status = "completed"): ReadonlyArray<ItemEvent> {
    const found = this.open.get(key)
    if (found === undefined) return []
    this.open.delete(key)
    if (found === this.lastText) this.lastText = undefined
    const { events, item, json } = closeItem(found, status, this.withEncrypted)
    return [...events, this.done(found.index, item, json)]
  }

  /** A finished item into the output, and its `output_item.done` event. */
  protected done(index: number, item: OutputItem, json = JSON.stringify(item)): ItemEvent {
    this.output[index] = item
    this.outputJson[index] = json
    return itemDone.fill(`${index}`, json)
  }
}
