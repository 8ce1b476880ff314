// The validator the MCP SDK's client checks a tool's structured result with, against the
// `outputSchema` the server listed. Left to itself the SDK builds its own ajv, whose patterns run
// on the engine's backtracking RegExp: a server listing "^(a+)+$" and answering forty a's and a
// "!" froze the run (timers, Ctrl-C and all). Here the schemas compile with the core's bounded
// engine (text/schemaEngine.ts), and one that does not compile fails its tool's calls with the
// reason instead of failing the whole tool list.

import type { jsonSchemaValidator, JsonSchemaValidatorResult } from "@modelcontextprotocol/sdk/validation/types.js";
import { enginesByDraft, type SchemaValidator } from "../../text/schemaEngine";

const engineOf = enginesByDraft({ allErrors: false, strict: false, validateFormats: false });

/** For the SDK client's `jsonSchemaValidator` option. */
export const mcpOutputValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown) {
    let validate: SchemaValidator;
    try {
      // Ids would clash across servers and across two listings of one server.
      const { $id: _id, ...body } = schema as Record<string, unknown>;
      validate = engineOf(schema).compile(body);
    } catch (error) {
      const errorMessage = `the tool's outputSchema is not a valid JSON Schema: ${(error as Error).message}`;
      return (): JsonSchemaValidatorResult<T> => ({ valid: false, data: undefined, errorMessage });
    }
    return (input: unknown): JsonSchemaValidatorResult<T> => {
      if (validate(input)) return { valid: true, data: input as T, errorMessage: undefined };
      const errors = (validate.errors ?? []).map(
        (e) => `${e.instancePath === "" ? "/" : e.instancePath} ${e.message ?? ""}`,
      );
      return { valid: false, data: undefined, errorMessage: errors.join("; ").trim() };
    };
  },
};
