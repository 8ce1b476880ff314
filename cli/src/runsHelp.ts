// `rlm-plan runs --help`: its usage lines and what each subcommand and option does.

export const RUNS_USAGE = `usage: rlm-plan runs list [--plan PLAN] [--status STATUS] [--origin ORIGIN] [--case TEXT]
                          [--since WHEN] [--min-cost AMOUNT] [--max-cost AMOUNT] [--unknown-cost]
                          [--limit N] [--json]
       rlm-plan runs show RUN [--json]
       rlm-plan runs diff A B [--json] [--format text|json|github]
       rlm-plan runs export RUN [--format json|html] [-o FILE]
       rlm-plan runs prune [--keep N] [--older-than AGE]
       rlm-plan runs approve RUN [--step PATH] --as NAME --reason TEXT
       rlm-plan runs deny RUN [--step PATH] --as NAME --reason TEXT
       (each takes --journal DIR)`;

export const RUNS_HELP = `rlm-plan runs: the run journal (every rlm-plan run is recorded unless --no-journal)

${RUNS_USAGE}

The journal is found as the host profile is: .rlm-plan/runs.sqlite in the folder of the --plan
file or above it, else in this folder or above it, or beside the nearest host profile; --journal
DIR names another (the journal's folder, or a workspace folder holding .rlm-plan/). With none of
these, the one journal in the folders below this one (three levels down at most) is read. Each
command first says which journal it read.

  list      runs, newest first: id, status, start, time, tokens and cost (once a listed run
            called a model; "~" where a provider reported no usage), plan, error, and where it came
            from (a test case's run: test FILE#CASE; a fork: fork of RUN at STEP; one step run
            alone, run PLAN --step PATH --bindings JSON: step PATH)
            --plan PLAN      runs of this plan file (name or path)
            --status STATUS  running, interrupted, waiting, ok, failed or cancelled
            --origin ORIGIN  runs started from cli, editor, debugger, test, worker, step or schedule
            --case TEXT      runs of rlm-plan test whose FILE#CASE holds TEXT
            --since WHEN     started since a date (2026-12-01, an ISO time) or an age (30m, 2h, 7d)
            --min-cost AMOUNT, --max-cost AMOUNT
                             runs whose model calls cost at least, at most AMOUNT (in each run's
                             currency; a run with no model call cost 0); a run with an unpriced
                             call has no known cost and is left out, unless --unknown-cost
            --limit N        the newest N only
            --json           one JSON array
  show      one run: plan, host profile, status, its parent and forks, transitions (each with
            its step path), value or error, estimate against what was spent, each model call's
            tokens and cost and the run's total (--json: as export)
  diff      two runs (A, then B) lined up step by step by the step's path: the steps whose
            status, error, value (compared exactly), attempts, parallel branches or calls differ,
            steps added or removed between plan versions, and the first divergence (file:line:col);
            time is shown, never a difference. --json (or --format json): the whole comparison;
            --format github: a Markdown summary for $GITHUB_STEP_SUMMARY or a pull request.
            Exit status 0 when the runs agree, 1 when they differ, 2 on a usage error or a run
            the journal does not hold
  export    one run as JSON: plan and host-profile texts, options, every event, every model and
            tool request (masked) with its reply or error; --format html: one self-contained
            page (graph, timeline, values; no network) to stdout or -o FILE, as rlm-plan ui shows it
  prune     removes finished and interrupted runs: --keep N keeps the newest N, --older-than AGE
            removes those started longer ago (default: --older-than 30d)
  approve   a vote for the step run RUN waits at (--step PATH when several wait), as NAME
            (one of the rule's approvers), for the reason TEXT; bound to the action's hash,
            recorded for good. Once the quorum approves, the run is resumed here and the step
            runs; the exit status is then the run's (docs/approvals.md)
  deny      a vote against: one denial of an approver fails the run at the step (approval_denied)

A run that did not finish (interrupted or cancelled) can be continued: rlm-plan run --resume RUN.
Any run can be forked from one of its steps: rlm-plan run --from RUN --step PATH [--set NAME=JSON].

exit status: 0 fine, 1 no such run, 2 usage or journal error`;
