// A reader of one kind of JSON-with-comments file the test runner reads (test files,
// cassettes): its schema compiled by the core's schema engine on first use (with the schemas it
// refers to), every problem located as host profiles' are (parseSchemaFile). Host profiles and
// mocks files have validators compiled ahead of time instead (host/generated/).

import { parseSchemaFile, type SchemaCheck } from "../host/profile";
import { schemaEngine, type SchemaValidator } from "../text/schemaEngine";

export function schemaFileReader(
  schema: Readonly<Record<string, unknown>>,
  what: string,
  options: { readonly refs?: readonly Readonly<Record<string, unknown>>[]; readonly allowUnionTypes?: boolean } = {},
): (text: string, file: string) => ReturnType<typeof parseSchemaFile> {
  let validate: SchemaValidator | undefined;
  const check: SchemaCheck = (value) => {
    if (!validate) {
      validate = schemaEngine({
        allErrors: true,
        verbose: true,
        strict: true,
        allowUnionTypes: options.allowUnionTypes === true,
        refs: options.refs ?? [],
      }).compile(schema);
    }
    return validate(value) ? { ok: true } : { ok: false, errors: validate.errors ?? [] };
  };
  return (text, file) => parseSchemaFile(text, file, check, undefined, what);
}
