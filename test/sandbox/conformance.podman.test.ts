import { conformanceOnEngine } from "./conformanceOnEngine.ts"
import { podmanEngine } from "./engines.ts"

conformanceOnEngine(podmanEngine)
