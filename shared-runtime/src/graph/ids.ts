// Graph node ids from JSON paths, in a module of its own (type imports only): the editor's client
// maps a run's steps to graph nodes with it without bundling the graph model.

import type { JsonPath } from "../json";

export const ROOT_PLAN_ID = "plan";

export function pathId(path: JsonPath): string {
  return path.length === 0 ? ROOT_PLAN_ID : path.join("/");
}
