// What a graph view's page is sent, and how (client/src/graph/pageMessages.ts): the messages
// there when its HTML is set go into it and are not posted again; a graph after that is posted
// at once and again on "ready"; a page set again in the place of one that never loaded carries
// everything not yet seen by a ready page; after "ready" every message is posted as it comes.

import { strict as assert } from "node:assert";
import { beforeEach, test } from "node:test";
import type { ToWebview } from "rlm-plan-client/graph/messages";
import { PageMessages } from "rlm-plan-client/graph/pageMessages";

let posted: string[];
let ready: boolean;
let messages: PageMessages;

const graph = (seq: number): ToWebview => ({
  type: "graph",
  graph: { nodes: [], edges: [] } as never,
  title: "Graph: t",
  seq,
});
const select = (id: string): ToWebview => ({ type: "select", id });
const name = (message: ToWebview) =>
  message.type === "graph" ? `graph ${message.seq}` : message.type === "select" ? `select ${message.id}` : message.type;

beforeEach(() => {
  posted = [];
  ready = false;
  messages = new PageMessages({ post: (message) => posted.push(name(message)), isReady: () => ready });
  messages.opening();
});

test("what is there when the page is set goes into its HTML, and is not posted on ready", () => {
  messages.send(graph(1));
  messages.send(select("steps/0"));
  assert.deepEqual(posted, []);
  assert.deepEqual(messages.writeIntoPage().map(name), ["graph 1", "select steps/0"]);
  assert.equal(messages.pageHasGraph, true);
  ready = true;
  messages.ready();
  assert.deepEqual(posted, []);
  messages.send(select("steps/1"));
  assert.deepEqual(posted, ["select steps/1"]);
});

test("a page set before the graph came: the graph is posted at once and again on ready, with what else came", () => {
  assert.deepEqual(messages.writeIntoPage(), []);
  assert.equal(messages.pageHasGraph, false);
  messages.send(graph(1));
  messages.send(select("steps/0"));
  assert.deepEqual(posted, ["graph 1"]);
  ready = true;
  messages.ready();
  assert.deepEqual(posted, ["graph 1", "graph 1", "select steps/0"]);
});

test("a page set again in the place of one that never loaded carries everything the first was sent", () => {
  messages.send(graph(1));
  messages.writeIntoPage();
  messages.send(graph(2));
  assert.deepEqual(posted, ["graph 2"]);
  messages.opening(); // the load watch replaced the view
  messages.send(select("steps/3"));
  assert.deepEqual(posted, ["graph 2"], "nothing is posted to a page not set yet");
  assert.deepEqual(messages.writeIntoPage().map(name), ["graph 1", "graph 2", "select steps/3"]);
  ready = true;
  messages.ready();
  assert.deepEqual(posted, ["graph 2"]);
});
