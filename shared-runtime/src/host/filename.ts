// The host profile's file name, in a module of its own (no imports): an editor client needs the
// name to watch and select profiles without bundling the profile loader and its JSON Schema checker.

export const HOST_PROFILE_FILENAME = "rlmplan.host.json";
