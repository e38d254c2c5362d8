import { Redacted } from "effect"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startSandboxInstance } from "../app/instances.ts"
import { createSandbox } from "../sandbox/chat.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import { ADMIN_TOKEN, type ConsoleContext, launch, openConsole, screenshot, signInAsOperator } from "./support.ts"

/**
 * The sandboxes page on two instances sharing one Postgres (docs/DESIGN.md
 * §6, §8): each lists both instances' sandboxes, but only the instance that
 * holds one can delete it, and the page says so rather than reporting success.
 */
describePostgres("the console's sandboxes page on many instances", () => {
  let schema: Awaited<ReturnType<typeof createSchema>>
  let a: TestGateway
  let b: TestGateway
  let browser: Browser
  const consoles: Array<ConsoleContext> = []
  let sandboxId: string

  const sandboxesPage = async (gateway: TestGateway) => {
    const opened = await openConsole(browser, gateway)
    consoles.push(opened)
    await signInAsOperator(opened.page)
    await opened.page.getByRole("link", { name: "Sandboxes" }).click()
    await opened.page.getByRole("heading", { name: "Sandboxes", level: 1 }).waitFor()
    return opened
  }

  beforeAll(async () => {
    schema = await createSchema()
    const config = { adminToken: Redacted.make(ADMIN_TOKEN) }
    a = await startSandboxInstance(schema.url, "gw-a", config)
    b = await startSandboxInstance(schema.url, "gw-b", config)
    sandboxId = (await createSandbox(a, (await a.createKey()).secret)).id
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    for (const opened of consoles) await opened.context.close()
    await browser?.close()
    await a?.close()
    await b?.close()
    await schema?.drop()
  })

  it("a delete on another instance shows why it failed and what to do, and the sandbox stays", async () => {
    const { errors, leaving, page } = await sandboxesPage(b)
    const row = page.getByRole("row").filter({ hasText: sandboxId })
    // count() does not wait: the list loads after the page.
    await row.waitFor()
    await expect(row.getByRole("cell", { name: "local, gw-a" }).count()).resolves.toBe(1)

    await row.getByRole("button", { name: `Delete sandbox ${sandboxId}` }).click()
    const dialog = page.getByRole("dialog", { name: "Delete this sandbox?" })
    await dialog.getByRole("button", { name: "Delete" }).click()
    const alert = dialog.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toBe(
      `Sandbox ${sandboxId} lives on instance gw-a: only gw-a can delete it, as its workspace is on that ` +
        "instance's disk. Send the DELETE to gw-a at its own address (or open the console there), or run " +
        `\`parley sandbox rm ${sandboxId}\` on its host`
    )
    await screenshot(page, "console-sandbox-delete-elsewhere.png")

    await dialog.getByRole("button", { name: "Cancel" }).click()
    await page.reload()
    await page.getByRole("heading", { name: "Sandboxes", level: 1 }).waitFor()
    await page.getByRole("row").filter({ hasText: sandboxId }).waitFor()
    expect(errors.filter((error) => !/status of 409/.test(error))).toEqual([])
    expect(leaving).toEqual([])
  })

  it("the instance holding it deletes it", async () => {
    const { page } = await sandboxesPage(a)
    await page.getByRole("button", { name: `Delete sandbox ${sandboxId}` }).click()
    await page.getByRole("dialog", { name: "Delete this sandbox?" }).getByRole("button", { name: "Delete" }).click()
    await page.getByText("No sandboxes").waitFor()
    const listed = await fetch(`${b.url}/admin/v1/sandboxes`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect((await listed.json()).data.sandboxes).toEqual([])
  })
})
