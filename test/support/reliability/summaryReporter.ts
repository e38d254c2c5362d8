import type { Reporter, TestModule } from "vitest/node"
import { SIZE } from "./size.ts"

/**
 * Prints one table at the end of a reliability run: each test, the size it ran
 * at, its result and the figures it recorded (`record`). The README's table
 * lists the same rows.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: Array<ReadonlyArray<string>> = []
    for (const testModule of testModules) {
      const file = testModule.moduleId.split("/").at(-1) ?? testModule.moduleId
      for (const testCase of testModule.children.allTests()) {
        const meta = testCase.meta().reliability
        const figures = Object.entries(meta?.figures ?? {}).map(([name, value]) => `${name} ${value}`).join(", ")
        rows.push([`${file} › ${testCase.fullName}`, meta?.size ?? SIZE, testCase.result().state, figures])
      }
    }
    const header = ["test", "size", "result", "figures"]
    const widths = header.map((title, i) => Math.min(90, Math.max(title.length, ...rows.map((row) => row[i]!.length))))
    const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")
    console.log(`\nReliability summary (RELIABILITY_SIZE=${SIZE})`)
    console.log(line(header))
    console.log(widths.map((width) => "-".repeat(width)).join("-|-"))
    for (const row of rows) console.log(line(row))
    const count = (state: string) => rows.filter((row) => row[2] === state).length
    const broken = testModules.filter((testModule) => testModule.state() === "failed" && !testModule.ok()).length
    console.log(
      `${count("passed")} passed, ${count("failed")} failed, ${
        count("skipped") + count("pending")
      } not run; ${broken} files failed\n`
    )
  }
}
