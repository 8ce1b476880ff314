import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
export interface ChildOutput {
    readonly code: number | null;
    readonly stdout: string;
    readonly stderr: string;
}
export declare function childOutput(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ChildOutput>;
