import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "./guideSession.ts"

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
const anchorsOf = (markdown: string): ReadonlySet<string> => {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const heading of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replaceAll("`", "")
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-")
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

const withoutFences = (markdown: string) => markdown.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, "")

/** Code blocks and spans hold commands and JSON, not links. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, "")

const documents = [
  "README.md",
  "BENCHMARKS.md",
  ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)
]

/** Every relative link of a document: `[text](target)`, with a title or not. */
const linksOf = (markdown: string) =>
  [...withoutCode(markdown).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!).filter((
    target
  ) => !/^[a-z]+:/i.test(target))

/** Why a link from `document` (a path from the root) leads nowhere, or undefined when it leads where it says. */
const brokenLink = (document: string, link: string): string | undefined => {
  const [path, anchor] = link.split("#") as [string, string | undefined]
  const target = path === "" ? join(root, document) : join(root, dirname(document), decodeURIComponent(path))
  if (!existsSync(target)) return `${document}: ${link} (no such file)`
  if (anchor === undefined || anchor === "" || statSync(target).isDirectory() || !target.endsWith(".md")) {
    return undefined
  }
  if (anchorsOf(readFileSync(target, "utf8")).has(anchor)) return undefined
  return `${document}: ${link} (no heading #${anchor} in ${relative(root, target)})`
}

/** The source files of src/, as paths from the root. */
const sources = (dir = "src"): ReadonlyArray<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(`${dir}/${entry.name}`)
      : entry.name.endsWith(".ts")
      ? [`${dir}/${entry.name}`]
      : []
  )

describe("links in README.md, BENCHMARKS.md and docs/", () => {
  it("point at files that exist and at headings those files have", () => {
    const broken = documents.flatMap((document) =>
      linksOf(readFileSync(join(root, document), "utf8")).map((link) => brokenLink(document, link))
    )
    expect(broken.filter((why) => why !== undefined)).toEqual([])
  })

  it("that the code names (a hint such as `npx parley serve`'s, a comment) lead to files and headings that exist", () => {
    const named = sources().flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(/\bdocs\/[\w-]+\.md(?:#[\w-]+)?/g)].map((match) => ({
        file,
        link: match[0]
      }))
    )
    expect(named.map(({ link }) => link)).toContain("docs/configuration.md#provider-types")
    expect(
      named.map(({ file, link }) => brokenLink("README.md", link)?.replace("README.md", file))
        .filter((why) => why !== undefined)
    ).toEqual([])
  })

  it("hold JSON blocks that parse, so an example can be pasted into a file as it is", () => {
    const invalid: Array<string> = []
    for (const document of documents) {
      const markdown = readFileSync(join(root, document), "utf8")
      for (const block of markdown.matchAll(/^```json\n([\s\S]*?)^```/gm)) {
        try {
          JSON.parse(block[1]!)
        } catch (error) {
          invalid.push(`${document}: ${(error as Error).message} in ${block[1]!.slice(0, 60)}…`)
        }
      }
    }
    expect(invalid).toEqual([])
  })

  it("finds the links it checks (a document without any would pass by accident)", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    expect(linksOf(readme).length).toBeGreaterThan(5)
    expect(anchorsOf("## 2. Shape of the code\n## A `b` c\n## A b c")).toEqual(
      new Set(["2-shape-of-the-code", "a-b-c", "a-b-c-1"])
    )
  })
})
