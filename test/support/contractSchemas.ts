import { Ajv2020 } from "ajv/dist/2020.js"
import { OpenApi } from "effect/http-api"
import { Contract } from "../../src/app/contract.ts"

/** The whole contract as /openapi.json declares it. */
export const spec = OpenApi.fromApi(Contract) as unknown as Record<string, any>

const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema({ ...spec, $id: "parley-openapi" })

/** A validator of one of the contract's named schemas (`ChatCompletion`, `MessagesRequest`…). */
export const contractSchema = (name: string) => ajv.getSchema(`parley-openapi#/components/schemas/${name}`)!
