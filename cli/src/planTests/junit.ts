// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub's test reporters): one <testsuite>
// per test file, one <testcase> per case run, a <failure> with every failed expectation, its
// expected and actual values. Characters XML 1.0 cannot hold are dropped.

import { failureText, type ReportedCase, type TestReport } from "./testReport";
import { xmlAttribute, xmlText } from "@rlm-plan/core/text";

export function junitXml(report: TestReport): string {
  const byFile = new Map<string, ReportedCase[]>();
  for (const c of report.cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="rlm-plan test" tests="${report.summary.total}" failures="${report.summary.failed}" errors="0" time="${seconds(report.summary.duration_ms)}">`,
  ];
  for (const [file, cases] of byFile) {
    const failures = cases.filter((c) => !c.ok).length;
    const time = cases.reduce((sum, c) => sum + c.duration_ms, 0);
    lines.push(
      `  <testsuite name="${attr(file)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(time)}">`,
    );
    for (const c of cases) {
      const name = c.repeat ? `${c.name} [${c.repeat.index}/${c.repeat.of}]` : c.name;
      const open = `    <testcase name="${attr(name)}" classname="${attr(file)}" file="${attr(c.location.file)}" line="${c.location.line}" time="${seconds(c.duration_ms)}"`;
      if (c.ok) {
        lines.push(`${open}/>`);
        continue;
      }
      const first = c.failures[0];
      const body = c.failures
        .map((f) => {
          const values =
            f.expected !== undefined || f.actual !== undefined
              ? `\nexpected: ${JSON.stringify(f.expected ?? null)}\nactual: ${JSON.stringify(f.actual ?? null)}`
              : "";
          const { line, column } = f.at ?? c.location;
          return `${c.location.file}:${line}:${column}: ${failureText(f)}${values}`;
        })
        .join("\n\n");
      lines.push(`${open}>`);
      lines.push(
        `      <failure message="${attr(first?.message ?? "failed")}" type="${attr(first?.assertion ?? "ok")}">${text(body)}</failure>`,
      );
      lines.push(`    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return `${lines.join("\n")}\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// A character XML 1.0 cannot hold is dropped from the report.
const text = (value: string): string => xmlText(value, "");
const attr = (value: string): string => xmlAttribute(value, "");
