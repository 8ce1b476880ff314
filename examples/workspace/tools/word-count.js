#!/usr/bin/env node
// A command tool: reads its arguments (any JSON) on stdin, finds every text in them, and prints
// {"texts": N, "words": M} on stdout. Words are runs of non-space characters.
"use strict";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  let args;
  try {
    args = JSON.parse(input);
  } catch {
    process.stderr.write("word-count: the arguments on stdin are not JSON\n");
    process.exit(2);
  }
  const texts = [];
  const visit = (value) => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(args);
  const words = texts.reduce((total, text) => total + (text.match(/\S+/g) ?? []).length, 0);
  process.stdout.write(JSON.stringify({ texts: texts.length, words }));
});
