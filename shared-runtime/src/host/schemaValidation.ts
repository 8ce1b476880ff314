// The ajv options of the JSON files the runtime reads against a schema of its own (host
// profiles, mocks files). Their validators are compiled ahead of time (`npm run generate`
// writes host/generated/ with ajv's standalone code), because compiling a schema at start-up was
// a fifth of a `rlm-plan check`: the generator (text/schemaEngine.ts' standalone source) reads
// these options, so the generated code is exactly what ajv would compile.

import type { SchemaEngineOptions } from "../text/schemaEngine";

/** For shared-runtime/schemas/host-profile.schema.json. */
export const HOST_PROFILE_AJV_OPTIONS: SchemaEngineOptions = {
  allErrors: true,
  verbose: true,
  discriminator: true,
  strict: true,
};

/** For shared-runtime/schemas/mocks.schema.json. */
export const MOCKS_AJV_OPTIONS: SchemaEngineOptions = { allErrors: true, verbose: true, strict: true };
