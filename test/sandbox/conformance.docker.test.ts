import { conformanceOnEngine } from "./conformanceOnEngine.ts"
import { dockerEngine } from "./engines.ts"

conformanceOnEngine(dockerEngine)
