#!/usr/bin/env node
// `npx parley` runs this with the project's Node 24 (node_modules/.bin first on PATH),
// which runs the TypeScript sources directly.
if (!process.features.typescript) {
  console.error(
    `parley needs Node.js 22.18 or newer (this is ${process.version}). ` +
      "Run it as `npx parley …` or `npm run parley -- …`, which use the project's Node 24."
  )
  process.exit(1)
}
await import("../src/cli/main.ts")
