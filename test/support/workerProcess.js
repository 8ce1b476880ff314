"use strict";
// `rlm-plan worker` as a real child process for the queue's tests: started from a workspace
// folder, its stderr kept (and waited on: "ready", a job's line), signalled, and killed when the
// test process exits.
Object.defineProperty(exports, "__esModule", { value: true });
exports.startWorker = startWorker;
exports.stopWorker = stopWorker;
const node_child_process_1 = require("node:child_process");
const cliWorkspace_1 = require("./cliWorkspace");
const started = new Set();
process.once("exit", () => {
    for (const worker of started)
        if (worker.child.exitCode === null)
            worker.child.kill("SIGKILL");
});
async function startWorker(cwd, name, args, env = {}) {
    const child = (0, node_child_process_1.spawn)(process.execPath, [cliWorkspace_1.CLI, "worker", "--name", name, ...args], {
        cwd,
        env: { ...process.env, NO_COLOR: "1", ...env },
        stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    const waiters = [];
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
        log += chunk;
        for (const waiter of [...waiters])
            if (waiter.pattern.test(log)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve();
            }
    });
    child.stdout.resume();
    const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    const worker = {
        name,
        child,
        log: () => log,
        exited,
        waitFor: (pattern) => pattern.test(log)
            ? Promise.resolve()
            : new Promise((resolve, reject) => {
                waiters.push({ pattern, resolve });
                void exited.then(() => {
                    if (!pattern.test(log))
                        reject(new Error(`worker ${name} exited before ${String(pattern)}:\n${log}`));
                });
            }),
    };
    started.add(worker);
    await worker.waitFor(/ready: queue/);
    return worker;
}
async function stopWorker(worker) {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null)
        return;
    worker.child.kill("SIGKILL");
    await worker.exited;
}
//# sourceMappingURL=workerProcess.js.map