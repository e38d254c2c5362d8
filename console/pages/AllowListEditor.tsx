/**
 * An allow-list as checkboxes over the catalog (docs/DESIGN.md §6): `*`, a
 * provider's `<provider>/*` (models), and each model or tool. Entries the
 * list already holds that the catalog does not offer stay, checked.
 */
export const AllowListEditor = ({ legend, name, noun, items, value, onChange }: {
  readonly legend: string
  /** Prefixes the checkboxes' ids: unique on the page. */
  readonly name: string
  readonly noun: "models" | "tools"
  readonly items: ReadonlyArray<{ readonly id: string; readonly label: string }>
  readonly value: ReadonlyArray<string>
  readonly onChange: (value: ReadonlyArray<string>) => void
}) => {
  const offered = [{ id: "*", label: `All ${noun}` }, ...items]
  const extra = value.filter((entry) => !offered.some((item) => item.id === entry))
  const options = [...offered, ...extra.map((id) => ({ id, label: id }))]
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...value.filter((entry) => entry !== id), id] : value.filter((entry) => entry !== id))
  return (
    <fieldset class="allow-list">
      <legend>{legend}</legend>
      {options.map((option) => {
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
              {option.label === option.id ? null : <code>{option.id}</code>}
            </label>
          </div>
        )
      })}
      {value.length === 0 ? <p class="muted">Nothing selected: none of these {noun} may be used.</p> : null}
    </fieldset>
  )
}

/** The catalog's models, with one "all of a provider" entry per provider. */
export const modelItems = (models: ReadonlyArray<{ readonly id: string; readonly name: string }>) => {
  const providers = [...new Set(models.map((model) => model.id.split("/", 1)[0]!))]
  return [
    ...providers.map((provider) => ({ id: `${provider}/*`, label: `All of ${provider}` })),
    ...models.map((model) => ({ id: model.id, label: model.name }))
  ]
}

export const toolItems = (tools: ReadonlyArray<{ readonly name: string; readonly description: string }>) =>
  tools.map((tool) => ({ id: tool.name, label: tool.name }))
