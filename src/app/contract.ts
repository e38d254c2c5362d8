import type { HttpApiGroup } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { doorList } from "./doors.ts"

// Each door's endpoints, from the door table.
const doorGroups = doorList.flatMap(([, door]) =>
  door.contract === undefined ? [] : [door.contract]
) as unknown as readonly [
  HttpApiGroup.Constraint,
  ...Array<HttpApiGroup.Constraint>
]

/**
 * The whole contract as /openapi.json and /docs declare it: the API's, and
 * each protocol's door, whose wire schemas live in its own folder
 * (docs/DESIGN.md §14), above the API layer.
 */
export const Contract = Api.add(...doorGroups)
