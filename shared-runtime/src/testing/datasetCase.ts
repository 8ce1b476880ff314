// One case of a dataset's row, kept small: a dataset may have a million rows, and each case held
// its name, id, location and parsed inputs (about 900 bytes a case, 1 GB for 1.2 million). This
// keeps the row's place in the file and what its rows share; the rest is made when asked, its
// inputs read again from its line (dataset.ts' datasetInputs).

import type { JsonObject } from "../json";
import type { Mocks } from "../host/mocks";
import { datasetInputs, type DatasetRow } from "./dataset";
import type { CaseLocation, Expectations, TestCase, TestSuite } from "./testCase";

/** What every case of one dataset shares. */
export interface DatasetCases {
  readonly suite: TestSuite;
  /** The dataset file (absolute), and as messages show it. */
  readonly file: string;
  readonly shown: string;
  /** Its cases' names are BASE:LINE. */
  readonly base: string;
  readonly expect: Expectations;
  readonly mocks?: Mocks;
  readonly cassette?: string;
}

export class DatasetCase implements TestCase {
  readonly repeat?: { readonly index: number; readonly of: number };

  constructor(
    private readonly cases: DatasetCases,
    private readonly row: DatasetRow,
    repeat?: { readonly index: number; readonly of: number },
  ) {
    if (repeat) this.repeat = repeat;
  }

  get suite(): TestSuite {
    return this.cases.suite;
  }
  get name(): string {
    return `${this.cases.base}:${this.row.line}`;
  }
  get id(): string {
    const suffix = this.repeat ? ` [${this.repeat.index}/${this.repeat.of}]` : "";
    return `${this.cases.suite.file}#${this.name}${suffix}`;
  }
  get location(): CaseLocation {
    return { file: this.cases.shown, line: this.row.line, column: 1 };
  }
  get inputs(): JsonObject {
    return datasetInputs(this.cases.file, this.cases.shown, this.row);
  }
  get expect(): Expectations {
    return this.cases.expect;
  }
  get mocks(): Mocks | undefined {
    return this.cases.mocks;
  }
  get cassette(): string | undefined {
    return this.cases.cassette;
  }
}
