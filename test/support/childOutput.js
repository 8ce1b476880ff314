"use strict";
// A child process's exit code and its whole stdout and stderr, as text, once it has closed.
Object.defineProperty(exports, "__esModule", { value: true });
exports.childOutput = childOutput;
function childOutput(child) {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}
//# sourceMappingURL=childOutput.js.map