// Model options the provider refuses are found before the run: the same rule the provider
// applies when the step runs (modelOptionProblem), asked of every model step of the plan.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { modelOptionProblem } from "@rlm-plan/core/plan/modelOptions";
import { requestBody } from "@rlm-plan/core/providers/chatRequest";

const PLAN = (options: string) =>
  `{"steps": [{"op": "rlm", "plan": {"steps": [{"op": "model", "provider": "p", "prompt": "hi", "options": ${options}, "bind": "r"}, {"op": "final", "value": 1}]}, "bind": "x"}, {"op": "final", "value": 1}]}`;

function problems(options: string): [string, string, string, boolean | undefined, string | undefined][] {
  const text = PLAN(options);
  return analyzePlanText(text).problems.map((p) => [
    p.kind,
    text.slice(p.range.offset, p.range.offset + p.range.length),
    p.message,
    p.hostDependent,
    p.suggestion,
  ]);
}

test("an option outside the allow-list: a host warning on its key, with the nearest allowed one", () => {
  assert.deepEqual(problems('{"max_token": 5, "stream": true}'), [
    [
      "unknown_model_option",
      '"max_token"',
      'model option "max_token" is not allowed (allowed: temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format): the provider refuses it when this step runs; did you mean "max_tokens"?',
      true,
      "max_tokens",
    ],
    [
      "unknown_model_option",
      '"stream"',
      'model option "stream" is not allowed (allowed: temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format): the provider refuses it when this step runs',
      true,
      undefined,
    ],
  ]);
});

test("an allowed option of the wrong type: a warning on its value", () => {
  assert.deepEqual(problems('{"temperature": "hot", "max_tokens": 0, "stop": ["a", 1]}'), [
    [
      "invalid_model_option",
      '"hot"',
      'model option "temperature" must be a number: the provider refuses it when this step runs',
      true,
      undefined,
    ],
    [
      "invalid_model_option",
      "0",
      'model option "max_tokens" must be a positive integer: the provider refuses it when this step runs',
      true,
      undefined,
    ],
    [
      "invalid_model_option",
      '["a", 1]',
      'model option "stop" must be a string or a list of strings: the provider refuses it when this step runs',
      true,
      undefined,
    ],
  ]);
});

test("allowed options pass, statically and in the request", () => {
  const options =
    '{"temperature": 0.2, "max_tokens": 64, "stop": "END", "seed": 1, "response_format": {"type": "json_object"}}';
  assert.deepEqual(problems(options), []);
  const body = JSON.parse(requestBody("m", { messages: [], options: JSON.parse(options) } as never)) as object;
  assert.deepEqual(Object.keys(body), [
    "model",
    "messages",
    "temperature",
    "max_tokens",
    "stop",
    "seed",
    "response_format",
  ]);
});

test("the provider refuses at run time with the same rule's message", () => {
  assert.throws(
    () => requestBody("m", { messages: [], options: { stream: true } } as never),
    new Error(modelOptionProblem("stream", true)?.message),
  );
  assert.equal(modelOptionProblem("seed", 1.5)?.message, 'option "seed" must be an integer');
});
