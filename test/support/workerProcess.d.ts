import { type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
export interface WorkerProcess {
    readonly name: string;
    readonly child: ChildProcessByStdio<null, Readable, Readable>;
    /** Everything it wrote to stderr so far. */
    log(): string;
    /** Resolves once its stderr matches `pattern` (now or later). */
    waitFor(pattern: RegExp): Promise<void>;
    /** Resolves to its exit code (null when a signal ended it). */
    readonly exited: Promise<number | null>;
}
export declare function startWorker(cwd: string, name: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<WorkerProcess>;
export declare function stopWorker(worker: WorkerProcess): Promise<void>;
