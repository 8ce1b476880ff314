// A git repository made by a test (what-if's base): `git init` in a folder, and commits of all its
// files, with a fixed author and no user or system configuration read.

import { spawnSync } from "node:child_process";

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "rlm-plan tests",
  GIT_AUTHOR_EMAIL: "tests@rlm-plan.invalid",
  GIT_COMMITTER_NAME: "rlm-plan tests",
  GIT_COMMITTER_EMAIL: "tests@rlm-plan.invalid",
};

/** Runs git in `dir`; throws with git's words when it fails. */
export function git(dir: string, ...args: string[]): string {
  const result = spawnSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** Makes `dir` a repository (branch main) and commits every file in it; returns the commit id. */
export function commitAll(dir: string, message: string): string {
  if (spawnSync("git", ["rev-parse", "--git-dir"], { cwd: dir }).status !== 0) git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--allow-empty", "-m", message);
  return git(dir, "rev-parse", "HEAD").trim();
}
