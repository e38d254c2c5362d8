import { HttpApi, type HttpApiGroup } from "effect/http-api"

/** One endpoint of a contract: its method and its path, with `:name` for a path parameter. */
export interface ContractRoute {
  readonly method: string
  readonly path: string
}

/** Every endpoint the contract declares, so that a path can say which methods it answers. */
export const contractRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<ContractRoute> => {
  const routes: Array<ContractRoute> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => routes.push({ method: endpoint.method, path: endpoint.path })
  })
  return routes
}
