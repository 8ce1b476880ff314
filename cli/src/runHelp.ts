// `rlm-plan run --help`: its usage lines and what each option does.

import { HOST_PROFILE_FILENAME } from "@rlm-plan/core/session";

export const RUN_USAGE =
  "usage: rlm-plan run PLAN [--host FILE] [--input NAME=PATH]... [--input-text NAME=VALUE]... [--input-json NAME=JSON]... [--inputs FILE.json] [--mocks FILE] [--parallel MODE] [--json [--events]] [--journal DIR | --no-journal] [--otlp URL] [--as NAME] [--wait]\n       rlm-plan run --resume RUN [--journal DIR] [--json [--events]] [--wait]\n       rlm-plan run --from RUN --step PATH [--set BINDING=JSON]... [--allow-changed] [--journal DIR] [--json [--events]]\n       rlm-plan run PLAN --step PATH --bindings JSON|@FILE.json [--mocks FILE] [--host FILE] [--json [--events]] [--journal DIR | --no-journal]\n       rlm-plan run PLAN --queue redis://HOST:PORT/QUEUE [--redis-password-file FILE] [--input-text NAME=VALUE]... [--input-json NAME=JSON]... [--inputs FILE.json] [--mocks FILE] [--parallel MODE] [--json [--events]]";

export const RUN_HELP = `rlm-plan run: run a plan file against the workspace's host profile

${RUN_USAGE}

The host profile (${HOST_PROFILE_FILENAME}) is the nearest one in the plan's folder or above it.
It grants capabilities and a budget, and provides the inputs, tools and model providers.

options:
  --host FILE         use this host profile instead
  --input NAME=PATH   use the text file PATH as input NAME (repeatable); always a path, as before
  --input-text NAME=VALUE
                      use VALUE itself as input NAME, a text (repeatable): a separate option,
                      so a value is never mistaken for a path nor a path for a value
  --input-json NAME=JSON
                      use the JSON value as input NAME (repeatable), checked against the
                      profile's declaration: a text takes a string, a value its "schema"
  --inputs FILE.json  input values from a JSON object of name -> value (options above win);
                      a --resume runs with the same values
  --mocks FILE        a dry run: the tools and providers FILE names answer from it
                      (no program, key or network needed for them; see schemas/mocks.schema.json)
  --parallel MODE     concurrent (default, or the profile's "parallel") or sequential branches
  --json              one JSON line per transition on stdout, then a {"type":"result"} line
                      (its "failed_attempts": each failed retry attempt's event, when any)
  --events            with --json, also every step event: {"type":"event","event":{...}} lines
                      (step_started, transition, step_finished, step_failed, attempt_failed;
                      each names its step by JSON path and source range; a failure's
                      error carries its message, secrets masked)
  --journal DIR       record the run in the journal in DIR (default: .rlm-plan/ beside the host profile)
  --no-journal        do not record the run
  --otlp URL          export the run as an OpenTelemetry trace to this OTLP/HTTP endpoint
                      (GenAI conventions; prompts and replies only with
                      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, masked)
  --queue URL         run the plan as a job on a queue (redis://HOST:PORT/QUEUE): a worker
                      (rlm-plan worker) runs it under ITS host profile; the output is the same,
                      and the run is recorded in the worker's journal, which the last line names
  --redis-password-file FILE
                      with --queue: the Redis password, the file's first line (or set
                      RLM_PLAN_REDIS_PASSWORD); unlike a password in the URL, not seen in ps
  --resume RUN        continue run RUN of the journal, which did not finish: its completed steps'
                      model and tool calls are answered from the journal, the rest runs; the plan
                      and host profile must be unchanged (see rlm-plan runs). A run waiting for
                      approval goes on once its approvers decided (or its request timed out)
  --as NAME           who starts the run (default: the OS user); an approval rule of the host
                      profile may forbid the run's starter to approve it (docs/approvals.md)
  --wait              a step held for approval waits here for the votes (rlm-plan runs approve
                      from another terminal), then the run goes on; on a terminal it also asks
                      you to approve, deny or wait (as --as NAME, else your OS user; not with
                      --json or in CI); without --wait, the run stops waiting (exit status 3)
                      and rlm-plan runs approve resumes it
  --from RUN --step PATH
                      a new run forked from run RUN (finished, failed or interrupted) at the
                      step PATH: the steps before it answer from the journal (no model or tool
                      call made again, the budget spent as it was), PATH and what follows run
                      for real. PATH as rlm-plan runs show prints it (steps/2), or a JSON
                      Pointer (/steps/2), or the journal's JSON array (["steps",2]). The fork is
                      recorded in RUN's journal with its parent (rlm-plan runs list shows it)
  --set BINDING=JSON  with --from: the binding's value as PATH starts (repeatable); only a
                      binding in scope at PATH (a text is quoted: --set name='"Ada"')
  --step PATH --bindings JSON
                      run only the step PATH of PLAN (a sub-plan step with its whole sub-plan),
                      with the bindings it reads from the steps before it given as a JSON
                      object ('{"name":"Ada"}') or @FILE.json; every name it reads must be
                      given, and only names in scope there may be. It runs under the host
                      profile as a run does (grants, budget, sandbox, lock; --mocks for a dry
                      run); its value is what the step binds. Recorded with origin step
  --allow-changed     with --from: fork even if the plan or host profile changed since RUN;
                      steps are matched by path, and from the first step that no longer matches
                      (missing, another operation or another request) everything runs for real
  -h, --help          show this help

Transitions are printed to stderr as they happen, and so is each failed retry attempt with
its reason; the final value goes to stdout. A failing step is named as PLAN:LINE:COL.
Ctrl-C cancels the run: running tools are killed.

exit status: 0 success, 1 the plan is invalid or failed, 2 usage or host profile error,
             3 waiting for approval (rlm-plan runs approve RUN), 130 cancelled (Ctrl-C)`;
