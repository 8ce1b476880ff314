// The paths a test file names (its plan, host profile, mocks files, cassettes and dataset), each
// held to the test file's workspace (host/workspaceBoundary.ts) before anything reads it.

import { workspacePath } from "../host/workspaceBoundary";

export type PathAt = (string | number)[];

/**
 * For the test file `file`: a written path (relative to `dir`) as the absolute path to read, or
 * undefined when there is none or it is refused; a refusal goes to `refuse` with the JSON path of
 * the string, once however many cases name the same path.
 */
export function boundedPaths(
  file: string,
  dir: string,
  refuse: (path: PathAt, message: string) => void,
): (path: PathAt, written: string | undefined) => string | undefined {
  const refused = new Set<string>();
  return (path, written) => {
    if (written === undefined) return undefined;
    const result = workspacePath(file, written, dir);
    if (result.ok) return result.path;
    if (!refused.has(written)) refuse(path, result.message);
    refused.add(written);
    return undefined;
  };
}
