// Golden files of the protocol tests (test/protocol/golden/): what the server answered over
// stdio, as each test prints it. `UPDATE_GOLDEN=1` writes them (review the diff before committing).

import { join } from "node:path";
import { expectGolden } from "../../service/support/golden";

/** The source folder (tests run from test/out/protocol/support). */
export const PROTOCOL_GOLDEN_ROOT = join(__dirname, "..", "..", "..", "protocol", "golden");

export function expectProtocolGolden(actual: string, folder: string, file: string): void {
  expectGolden(actual, folder, file, PROTOCOL_GOLDEN_ROOT);
}
