import { registerHooks } from "node:module"
const seen = new Set()
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(r.url); if (m && !seen.has(m[1])) { seen.add(m[1]); process.stderr.write(`${m[1]} <- ${context.parentURL?.replace(/.*\/work\/main\//, "")}\n`) } if (r.url.endsWith("platform-node/dist/index.js")) process.stderr.write(`BARREL <- ${context.parentURL}\n`); return r } })
