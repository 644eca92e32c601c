// What the Worker bundle has in place of ajv and ajv-formats (hosts/cloudflare/adapter.ts aliases both here). The MCP
// SDK's server imports Ajv for one use, checking a client's answer to elicitation, which this server never asks for
// (mcp/tools.ts passes a validator of its own); and workerd cannot run the code Ajv compiles anyway. ~250 KiB less.
export default class NoAjv {
  constructor() {
    throw new Error("Ajv is not in the Worker bundle: give the MCP server a jsonSchemaValidator");
  }
}
