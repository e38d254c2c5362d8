import type { CatalogTool } from "../../src/domain/views.ts"

export interface Item {
  readonly id: string
  readonly label: string
  /** Items of a group (an MCP server's tools) are shown together under its name. */
  readonly group?: string
  /** The label says it all: the entry itself is not shown beside it. */
  readonly plain?: true
}

/**
 * An allow-list (or an approval list) as checkboxes over the catalog
 * (docs/DESIGN.md §6): `*`, a provider's `<provider>/*` or a server's
 * `<server>__*`, and each model or tool, an MCP server's grouped under it.
 * Entries the list already holds that the catalog does not offer stay, checked.
 */
export const AllowListEditor = ({ legend, name, allLabel, empty, items, value, onChange }: {
  readonly legend: string
  /** Prefixes the checkboxes' ids: unique on the page. */
  readonly name: string
  /** The label of `*`. */
  readonly allLabel: string
  /** Said when nothing is checked. */
  readonly empty: string
  readonly items: ReadonlyArray<Item>
  readonly value: ReadonlyArray<string>
  readonly onChange: (value: ReadonlyArray<string>) => void
}) => {
  const offered: ReadonlyArray<Item> = [{ id: "*", label: allLabel }, ...items]
  const extra = value.filter((entry) => !offered.some((item) => item.id === entry))
  const options: ReadonlyArray<Item> = [...offered, ...extra.map(unoffered)]
  const groups = [...new Set(options.flatMap((option) => option.group === undefined ? [] : [option.group]))]
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...value.filter((entry) => entry !== id), id] : value.filter((entry) => entry !== id))
  const checks = (within: ReadonlyArray<Item>) => (
    <div class="options">
      {within.map((option) => {
        const id = `${name}-${option.id}`
        return (
          <div class="check" key={option.id}>
            <input
              type="checkbox"
              id={id}
              checked={value.includes(option.id)}
              onChange={(event) => toggle(option.id, event.currentTarget.checked)}
            />
            <label for={id}>
              {option.label}
              {option.label === option.id || option.plain ? null : (
                <>
                  {" "}
                  <code>{option.id}</code>
                </>
              )}
            </label>
          </div>
        )
      })}
    </div>
  )
  return (
    <fieldset class="allow-list">
      <legend>{legend}</legend>
      {checks(options.filter((option) => option.group === undefined))}
      {groups.map((group) => (
        <fieldset class="group" key={group}>
          <legend>MCP server {group}</legend>
          {checks(options.filter((option) => option.group === group))}
        </fieldset>
      ))}
      {value.length === 0 ? <p class="muted">{empty}</p> : null}
    </fieldset>
  )
}

/** An entry the catalog does not offer (a server gone, a tool no longer listed): under its server when it names one. */
const unoffered = (id: string): Item => {
  const at = id.indexOf("__")
  return at > 0 ? { id, label: id, group: id.slice(0, at) } : { id, label: id }
}

/** The catalog's models, with one "all of a provider" entry per provider. */
export const modelItems = (models: ReadonlyArray<{ readonly id: string; readonly name: string }>) => {
  const providers = [...new Set(models.map((model) => model.id.split("/", 1)[0]!))]
  return [
    ...providers.map((provider) => ({ id: `${provider}/*`, label: `All of ${provider}` })),
    ...models.map((model) => ({ id: model.id, label: model.name }))
  ]
}

/** The built-in tools, then each MCP server's `<server>__*` and tools, grouped by server. */
export const toolItems = (tools: ReadonlyArray<CatalogTool>): ReadonlyArray<Item> =>
  tools.map((tool) =>
    tool.server === undefined
      ? { id: tool.name, label: tool.name }
      : {
        id: tool.name,
        group: tool.server,
        ...(tool.name === `${tool.server}__*`
          ? { label: `All tools of ${tool.server}` }
          : { label: tool.name.slice(tool.server.length + 2), plain: true as const })
      }
  )
