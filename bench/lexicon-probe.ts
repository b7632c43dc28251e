/**
 * Run in a fresh process by bench/lexicon.ts: what the lexical resource costs. Over GitHub's 1,223 operations it times
 * the search index alone (the baseline), then WordNet's first load with the lexicon built from it (generation), and a
 * server's load of what it serves (the index with and without the lexicon); heap retained after each, in MiB.
 */
import { performance } from "node:perf_hooks";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { resolveConfig } from "../generator/config/index.js";
import { buildTools, lexiconFor, lexiconWords, searchableOperations } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { buildApiModel } from "../openapi/model/index.js";
import { qualityDocument } from "../scripts/rank-quality.js";
import { toolDefinition } from "../templates/tool-module.js";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heapMiB = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const timed = <T>(task: () => T): [T, number] => {
  const start = performance.now();
  const result = task();
  return [result, performance.now() - start];
};

const model = buildApiModel((await qualityDocument("github")).document);
const config = resolveConfig({
  server: { name: "github" },
  select: { all: true },
  mode: "discovery",
});
const entries = selectOperations(model, config);
const operations = searchableOperations(
  buildTools(model, entries, config).map(toolDefinition),
  entries.map((entry) => entry.tags),
  new Map(),
);
const [vocabulary, indexed] = lexiconWords(operations);

const before = heapMiB();
const [index, indexMs] = timed(() => new OperationSearchIndex(operations));
const stored = index.serialize();
const [lexicon, lexiconMs] = timed(() => lexiconFor(vocabulary, indexed));
const afterBuild = heapMiB();
const [, warmMs] = timed(() => lexiconFor(vocabulary, indexed));
const servedText = JSON.stringify(lexicon);
// What a server does at start: parse what the generator wrote, load the index, with and without the lexicon.
const [, loadBareMs] = timed(() => new OperationSearchIndex(operations, stored));
const beforeServed = heapMiB();
const [, loadMs] = timed(() => new OperationSearchIndex(operations, stored, JSON.parse(servedText)));
const servedHeap = heapMiB() - beforeServed;
process.stdout.write(
  `${JSON.stringify({
    operations: operations.length,
    vocabulary: new Set(vocabulary.map((word) => word.toLowerCase())).size,
    indexMs,
    lexiconMs,
    warmMs,
    generationHeapMiB: afterBuild - before,
    servedBytes: Buffer.byteLength(servedText),
    servedWords: Object.keys(lexicon.related).length,
    loadBareMs,
    loadMs,
    servedHeapMiB: servedHeap,
    rssMiB: process.memoryUsage().rss / 2 ** 20,
  })}\n`,
);
