// Hostile documents for Format Document, one list for the in-process test
// (test/service/formatting.hostile.test.ts) and bench/formatting.bench.ts: each is refused (no
// edits, a message) or answered with few edits, never formatted at length.

export interface HostileDocument {
  readonly name: string;
  readonly text: string;
  /** Formatting's answer: refused, or formatted in at most MAX_SEPARATE_EDITS edits. */
  readonly formatting: "refused" | "bounded";
  /**
   * Minutes in the service tier on two cores (the 24,000 keys: about 300 of its 377 s): the test
   * runs it only with RLM_PLAN_HOSTILE=1; bench/formatting.bench.ts formats it on every bench run.
   */
  readonly slow?: true;
}

const final = (value: string) => `{"steps":[{"op":"final","value":${value}}]}`;

/** Built on each call (several MB): keep the result only as long as it is needed. */
export function hostileDocuments(): HostileDocument[] {
  const steps = Array.from(
    { length: 60_000 },
    (_, i) => `{"op": "checkpoint", "label": "step ${i} of a plan that is five megabytes long, give or take"}`,
  );
  return [
    {
      name: "200,000 duplicate keys (1.2 MB, one line)",
      text: final(`{${Array.from({ length: 200_000 }, () => '"a":1').join(",")}}`),
      formatting: "refused",
    },
    {
      name: "5.8 MB, 60,000 steps",
      text: `{"steps": [\n${steps.join(",\n")},\n{"op": "final", "value": 1}]}\n`,
      formatting: "refused",
    },
    { name: "20 KB of [", text: "[".repeat(20_000), formatting: "refused" },
    { name: "150,000 numbers on one line", text: final(`[${"1,".repeat(150_000)}1]`), formatting: "refused" },
    { name: "100,000 comments", text: final(`1${"/**/".repeat(100_000)}`), formatting: "refused" },
    {
      name: "500 KB of blank lines",
      text: `{"steps":[${"\n".repeat(500_000)}${final("1").slice(10)}`,
      formatting: "bounded",
    },
    {
      name: "24,000 keys on one line (just under the limits)",
      text: final(`{${Array.from({ length: 24_000 }, (_, i) => `"k${i}":1`).join(",")}}`),
      formatting: "bounded",
      slow: true,
    },
    {
      name: "500 KB of strings (just under the limits)",
      text: final(`[${Array.from({ length: 500 }, () => JSON.stringify("x".repeat(1040))).join(",")}]`),
      formatting: "bounded",
    },
  ];
}
