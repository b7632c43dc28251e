import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeOperation, toolsListOf } from "oapi-mcp-gen-runtime";
import { readConfigFile } from "../generator/config/index.js";
import { generateFromFile } from "../generator/generate.js";
import { type JsonObject, readDocumentFile } from "../openapi/document/index.js";
import { discoveryQuality, HOLDOUT_MODEL_PICKS, HOLDOUT_SET, UNSEEN_MODEL_PICKS, UNSEEN_SET } from "../scripts/discovery-quality.js";
import { toolDefinition } from "../templates/tool-module.js";
import { cpuShares } from "./cpu-shares.js";
import { measureNode } from "./processes.js";
import { fmt, median, table } from "./stats.js";
import { jsonBytes, listSize, peerTools } from "./tools-list-size.js";

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "dist/generator/cli/cli.js");
const PEER = require.resolve("openapi-mcp-generator/bin/openapi-mcp-generator.js");
export const GITHUB = require.resolve("@octokit/openapi/generated/api.github.com.json");
const MEMOS = join(ROOT, "examples/memos/openapi.yaml");
/** The case users meet on a large API: every operation, no mode given. */
const GITHUB_AUTO = "GitHub (all 1,223), auto mode (the default)";

/** An earlier build's CLI (`BENCH_BASELINE_CLI=path/to/dist/generator/cli/cli.js`), timed on the same cases in the same run. */
const BASELINE_CLI = process.env.BENCH_BASELINE_CLI;

/** Cold generation with the baseline build, next to this build's cold times measured just before. */
async function compareWithBaseline(label: string, spec: string, config: string, runs: number, out: string, cwd: string, ours: number[]) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await rm(out, { recursive: true, force: true });
    await rm(join(cwd, "node_modules/.cache"), { recursive: true, force: true });
    const run = await measureNode(BASELINE_CLI ?? "", [spec, "--config", config, "--out", out], { cwd });
    if (run.code !== 0) throw new Error(`baseline generation failed: ${run.stderr.slice(-500)}`);
    times.push(run.ms);
  }
  return [label, fmt(median(ours) / 1000, 2), fmt(median(times) / 1000, 2), fmt(median(ours) / median(times), 2)];
}

/**
 * The document with one word added to a property description of its most referenced component schema (Memos' memo,
 * GitHub's simple user): an API change that reaches many tools' schemas and the types, not the tool list.
 */
function withOneSchemaChanged(document: JsonObject): JsonObject {
  const changed = structuredClone(document);
  const schemas = ((changed.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  const text = JSON.stringify(document);
  const uses = (name: string) => text.split(`"#/components/schemas/${name}"`).length;
  const [name] = Object.keys(schemas)
    .filter((key) => typeof schemas[key]?.properties === "object")
    .sort((a, b) => uses(b) - uses(a));
  const property = name ? Object.values(schemas[name]?.properties as Record<string, JsonObject>)[0] : undefined;
  if (!property) throw new Error("no component schema with properties to change");
  property.description = `${typeof property.description === "string" ? property.description : ""} (changed)`;
  return changed;
}

interface Case {
  label: string;
  spec: string;
  config: string;
  runs: number;
}

/** One cold run of openapi-mcp-generator, and the folder it wrote. */
interface PeerRun {
  ms: number;
  cpuMs: number;
  rssMiB: number;
  out: string;
}

/** Runs openapi-mcp-generator cold on a document into `out`. */
async function peerRun(spec: string, out: string): Promise<PeerRun> {
  const run = await measureNode(PEER, ["-i", spec, "-o", out, "-b", "http://127.0.0.1:9", "-t", "streamable-http"]);
  if (run.code !== 0) throw new Error(`openapi-mcp-generator failed: ${run.stderr.slice(-500)}`);
  return { ms: run.ms, cpuMs: run.cpuMs, rssMiB: run.rssMiB, out };
}

/** Generation time and memory (cold, unchanged, --check) next to openapi-mcp-generator, and tools/list sizes. */
export async function benchGeneration(): Promise<string[]> {
  const scratch = await mkdtemp(join(tmpdir(), "oapi-bench-"));
  const allConfig = join(scratch, "all.yaml");
  await writeFile(allConfig, "server:\n  name: bench\nselect:\n  all: true\n");
  // The same selection in tools mode: every operation a tool of its own, as `mode: tools` writes it.
  const toolsConfig = join(scratch, "all-tools.yaml");
  await writeFile(toolsConfig, "server:\n  name: bench\nselect:\n  all: true\nmode: tools\n");
  // A project folder with node_modules, so the render cache and run manifest are used as in a real repository.
  const project = join(scratch, "project");
  await writeFile(join(scratch, "placeholder"), "");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(join(project, "node_modules"), { recursive: true });
  const cases: Case[] = [
    { label: "Memos (17 curated)", spec: MEMOS, config: join(ROOT, "examples/memos/oapi-mcp.config.yaml"), runs: 5 },
    { label: "Memos (all 73), auto mode (the default)", spec: MEMOS, config: allConfig, runs: 3 },
    { label: "Memos (all 73), tools mode", spec: MEMOS, config: toolsConfig, runs: 3 },
    { label: GITHUB_AUTO, spec: GITHUB, config: allConfig, runs: 3 },
    { label: "GitHub (all 1,223), tools mode", spec: GITHUB, config: toolsConfig, runs: 3 },
  ];
  const rows: string[][] = [];
  const baselineRows: string[][] = [];
  const ours = new Map<
    string,
    { spec: string; wall: number; cpu: number; firstWall: number; firstCpu: number; unchanged: number; unchangedCpu: number }
  >();
  // The generator's compile cache (generator/compile-cache.ts) in a folder of the bench's own: empty for each case's
  // first run (as on a new machine or CI runner), then kept as on a machine that has run the generator before.
  const compileCache = { OAPI_MCP_GEN_COMPILE_CACHE: join(scratch, "compile-cache") };
  const peerRuns: { label: string; spec: string; run: PeerRun }[] = [];
  for (const { label, spec, config, runs } of cases) {
    const cold: number[] = [];
    const coldCpu: number[] = [];
    const coldRss: number[] = [];
    const warm: number[] = [];
    const warmCpu: number[] = [];
    const check: number[] = [];
    const changed: number[] = [];
    // The document as a copy of its own, so one of its schemas can then change as an API change would change it.
    const { document } = await readDocumentFile(spec);
    const copy = join(scratch, "document.json");
    const generate = (out: string, ...more: string[]) =>
      measureNode(CLI, [copy, "--config", config, "--out", out, ...more], { cwd: project, env: compileCache });
    await writeFile(copy, JSON.stringify(document));
    await rm(compileCache.OAPI_MCP_GEN_COMPILE_CACHE, { recursive: true, force: true });
    await rm(join(project, "node_modules/.cache"), { recursive: true, force: true });
    const first = await generate(join(scratch, "out-first"));
    if (first.code !== 0) throw new Error(`generation failed: ${first.stderr}`);
    const compared = !label.startsWith("Memos (17");
    for (let i = 0; i < runs; i++) {
      // The peer's cold run just before each of ours: the machine's speed drifts, and both then see the same drift.
      if (compared) peerRuns.push({ label, spec, run: await peerRun(spec, join(scratch, `peer-${peerRuns.length}`)) });
      const out = join(scratch, `out-${i}`);
      await rm(out, { recursive: true, force: true });
      await rm(join(project, "node_modules/.cache"), { recursive: true, force: true });
      await writeFile(copy, JSON.stringify(document));
      const run = await generate(out);
      if (run.code !== 0) throw new Error(`generation failed: ${run.stderr}`);
      cold.push(run.ms);
      coldCpu.push(run.cpuMs);
      coldRss.push(run.rssMiB);
      const unchanged = await generate(out);
      warm.push(unchanged.ms);
      warmCpu.push(unchanged.cpuMs);
      check.push((await generate(out, "--check")).ms);
      await writeFile(copy, JSON.stringify(withOneSchemaChanged(document)));
      const again = await generate(out);
      if (again.code !== 0 || !/[1-9]\d* files? changed/.test(again.stdout))
        throw new Error(`the changed schema changed nothing: ${again.stdout}`);
      changed.push(again.ms);
    }
    ours.set(label, {
      spec,
      wall: median(cold),
      cpu: median(coldCpu),
      firstWall: first.ms,
      firstCpu: first.cpuMs,
      unchanged: median(warm),
      unchangedCpu: median(warmCpu),
    });
    rows.push([
      label,
      fmt(median(cold) / 1000, 2),
      fmt(median(coldCpu) / 1000, 2),
      fmt(median(coldRss), 0),
      `${fmt(first.ms / 1000, 2)} / ${fmt(first.cpuMs / 1000, 2)}`,
      `${fmt(median(warm) / 1000, 2)} / ${fmt(median(warmCpu) / 1000, 2)}`,
      fmt(median(check) / 1000, 2),
      fmt(median(changed) / 1000, 2),
    ]);
    if (BASELINE_CLI) baselineRows.push(await compareWithBaseline(label, spec, config, runs, join(scratch, "baseline"), project, cold));
  }
  const peerRows: string[][] = [];
  const ratioRows: string[][] = [];
  const discoveryRows: string[][] = [];
  const sizeRows: string[][] = [];
  // The peer's runs of each document (it has no modes): one before each of our cold runs, in either mode.
  const documents = cases.slice(1).filter((item, index, all) => all.findIndex((other) => other.spec === item.spec) === index);
  for (const { label: named, spec } of documents) {
    const label = named.replace(/, .*$/, "");
    const runsOfSpec = peerRuns.filter((each) => each.spec === spec).map((each) => each.run);
    const times = runsOfSpec.map((run) => run.ms);
    const cpu = runsOfSpec.map((run) => run.cpuMs);
    const rss = runsOfSpec.map((run) => run.rssMiB);
    const peerOut = runsOfSpec.at(-1)?.out ?? "";
    peerRows.push([label, fmt(median(times) / 1000, 2), fmt(median(cpu) / 1000, 2), fmt(median(rss), 0)]);
    // What tools/list sends: the listed (tolerant) output schema, as the runtime shows it.
    // Generated in discovery mode: its own tools/list is the three tools as served (with the API's parts named).
    const generated = await generateFromFile(spec, { server: { name: "bench" }, select: { all: true }, mode: "discovery" });
    const definitions = generated.tools.map(toolDefinition);
    const discovery = generated.toolsList;
    discoveryRows.push([label, `${fmt(discovery.bytes / 1024, 1)} KiB / ${discovery.tokens}`]);
    const listed = toolsListOf(definitions);
    const peer = await peerTools(join(peerOut, "src/index.ts"));
    const whole = listSize(listed);
    const peerWhole = listSize(peer);
    const inputs = jsonBytes(listed.map((tool) => tool.inputSchema));
    const peerInputs = jsonBytes(peer.map((tool) => tool.inputSchema));
    sizeRows.push([
      label,
      String(listed.length),
      `${fmt(whole.bytes / 1024, 0)} KiB / ${whole.tokens}`,
      `${fmt(whole.bytes / listed.length, 0)} B / ${fmt(whole.tokens / listed.length, 0)}`,
      `${fmt(peerWhole.bytes / 1024, 0)} KiB / ${peerWhole.tokens}`,
      `${fmt(inputs / 1024, 0)} KiB / ${fmt(peerInputs / 1024, 0)} KiB`,
      fmt(inputs / peerInputs, 2),
      fmt(whole.bytes / peerWhole.bytes, 2),
    ]);
  }
  for (const [label, own] of ours) {
    const interleaved = peerRuns.filter((each) => each.label === label).map((each) => each.run);
    if (interleaved.length === 0) continue;
    const peer = { wall: median(interleaved.map((run) => run.ms)), cpu: median(interleaved.map((run) => run.cpuMs)) };
    ratioRows.push([
      label,
      `${fmt(own.wall / peer.wall, 1)} / ${fmt(own.cpu / peer.cpu, 1)}`,
      `${fmt(own.unchanged / peer.wall, 2)} / ${fmt(own.unchangedCpu / peer.cpu, 2)}`,
      `${fmt(own.firstWall / peer.wall, 1)} / ${fmt(own.firstCpu / peer.cpu, 1)}`,
    ]);
  }
  const shares = await cpuSharesTable(GITHUB, allConfig, scratch, project, compileCache, ours.get(GITHUB_AUTO), peerRuns);
  await rm(scratch, { recursive: true, force: true });
  process.stdout.write(
    "## Generation (medians; cold = empty output and render cache, the generator run before on the machine; first run = its compile cache empty too)\n\n",
  );
  const generation = table(
    [
      "document",
      "cold (s)",
      "cold CPU (s)",
      "cold peak RSS (MiB)",
      "first run on the machine, wall / CPU (s)",
      "unchanged, wall / CPU (s)",
      "--check (s)",
      "one schema changed (s)",
    ],
    rows,
  );
  process.stdout.write("## openapi-mcp-generator@4.0.1 on the same documents (it has no unchanged or --check mode)\n\n");
  const peerTable = [
    table(["document", "generation (s)", "CPU (s)", "peak RSS (MiB)"], peerRows),
    table(
      [
        "document",
        "cold, ours / peer's cold (each run just before ours): wall (target ≤ 3) / CPU",
        "unchanged re-run, ours / peer's cold: wall (target ≤ 0.35) / CPU",
        "first run on the machine, ours / peer's cold: wall / CPU",
      ],
      ratioRows,
    ),
  ].join("\n\n");
  process.stdout.write("## tools/list size (ours includes outputSchema, annotations, title and _meta; tokens ≈ bytes / 4)\n\n");
  const sizes = table(
    [
      "document",
      "tools",
      "our tools/list (bytes / tokens)",
      "per tool (bytes / tokens)",
      "peer tools/list (bytes / tokens)",
      "input schemas: ours / peer's",
      "input schemas, ours / peer (target ≤ 1)",
      "whole list, ours / peer (target ≤ 2)",
    ],
    sizeRows,
  );
  const { all: quality } = await discoveryQuality();
  const unseen = await discoveryQuality(UNSEEN_SET);
  const unseenNarrowed = await discoveryQuality(UNSEEN_SET, true);
  const unseenChosen = await discoveryQuality(UNSEEN_SET, false, UNSEEN_MODEL_PICKS);
  const holdout = await discoveryQuality(HOLDOUT_SET);
  const holdoutNarrowed = await discoveryQuality(HOLDOUT_SET, true);
  const holdoutChosen = await discoveryQuality(HOLDOUT_SET, false, HOLDOUT_MODEL_PICKS);
  const scores = (each: { hitAt1: number; hitAt5: number; mrr: number } | undefined) =>
    each ? `${fmt(each.hitAt1, 2)} / ${fmt(each.hitAt5, 2)} / ${fmt(each.mrr, 2)}` : "";
  const perApi = (plain: typeof unseen, ...others: (typeof unseen)[]) =>
    [...plain.byApi, ["all", plain.all] as const].map(([api, each]) => [
      `${api}: ${each.queries}`,
      scores(each),
      ...others.map((other) => scores(api === "all" ? other.all : other.byApi.get(api))),
    ]);
  const narrowedColumns = ["hit@1 / hit@5 / MRR", "within the answer's part (tag), as a model narrows: hit@1 / hit@5 / MRR"];
  const chosenColumn = "the client's model choosing (sampling; one model's recorded answers, replayed): hit@1 / hit@5 / MRR";
  const row = (label: string, each: { hitAt1: number; hitAt5: number; mrr: number }) => [
    label,
    fmt(each.hitAt1, 2),
    fmt(each.hitAt5, 2),
    fmt(each.mrr, 2),
  ];
  const discovery = [
    table(["document", "tools/list in discovery mode (bytes / tokens)"], discoveryRows),
    table(
      ["labelled queries (test/fixtures/queries/discovery.json)", "hit@1", "hit@5", "MRR"],
      [row(`${quality.queries} over GitHub and Memos, as users phrase them`, quality)],
    ),
    table(
      [
        "labelled queries over APIs the ranking was not tuned on at first (test/fixtures/queries/unseen.json)",
        ...narrowedColumns,
        chosenColumn,
      ],
      perApi(unseen, unseenNarrowed, unseenChosen),
    ),
    table(
      [
        "held-out labelled queries, written before the changes they measure (test/fixtures/queries/holdout.json)",
        ...narrowedColumns,
        chosenColumn,
      ],
      perApi(holdout, holdoutNarrowed, holdoutChosen),
    ),
    await largeApiTable(),
  ].join("\n\n");
  if (baselineRows.length === 0) return [generation, peerTable, shares, sizes, discovery];
  process.stdout.write(`## This build against the baseline build ${BASELINE_CLI} (cold runs, medians)\n\n`);
  return [
    generation,
    peerTable,
    shares,
    sizes,
    discovery,
    table(["document", "this build (s)", "baseline (s)", "this / baseline"], baselineRows),
  ];
}

/**
 * One cold run on a document under V8's profiler (every thread), its CPU by who spent it; and what the rest would
 * take on two cores were the generator's own code free: the floor under the cold ratio that the libraries, loading,
 * GC and the file system set.
 */
async function cpuSharesTable(
  spec: string,
  config: string,
  scratch: string,
  project: string,
  env: NodeJS.ProcessEnv,
  own: { cpu: number } | undefined,
  peerRuns: readonly { spec: string; run: PeerRun }[],
): Promise<string> {
  const profiles = join(scratch, "profiles");
  const out = join(scratch, "out-profiled");
  await rm(join(project, "node_modules/.cache"), { recursive: true, force: true });
  const run = await measureNode(CLI, [spec, "--config", config, "--out", out], {
    cwd: project,
    env,
    nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profiles, "--cpu-prof-interval", "500"],
  });
  if (run.code !== 0) throw new Error(`profiled generation failed: ${run.stderr.slice(-500)}`);
  const shares = [...(await cpuShares(profiles))].sort(([, a], [, b]) => b - a);
  const total = shares.reduce((sum, [, ms]) => sum + ms, 0);
  const ownMs = shares.find(([who]) => who.startsWith("the generator's own code"))?.[1] ?? 0;
  const peerWall = median(peerRuns.filter((each) => each.spec === spec).map((each) => each.run.ms));
  // The profiler slows a run: its shares, not its times, are applied to the unprofiled runs' median CPU.
  const floor = own ? ((1 - ownMs / total) * own.cpu) / 2 : Number.NaN;
  process.stdout.write("## Where a cold run's CPU goes (GitHub, auto mode: one run under V8's profiler, both threads)\n\n");
  return table(
    ["who", "CPU under the profiler (s)", "share"],
    [
      ...shares.map(([who, ms]) => [who, fmt(ms / 1000, 2), `${fmt((100 * ms) / total, 0)} %`]),
      [
        `were the generator's own code free: the rest of the cold CPU (${fmt((own?.cpu ?? Number.NaN) / 1000, 2)} s) on two cores`,
        `≥ ${fmt(floor / 1000, 2)} s wall`,
        `${fmt(floor / peerWall, 1)}× the peer's cold run`,
      ],
    ],
  );
}

/** A large API's contract in tools mode: the size of its tools/list and of one describe_operation answer. */
async function largeApiTable(): Promise<string> {
  const spec = join(ROOT, "test/fixtures/stripe/everyday.json");
  const result = await generateFromFile(spec, await readConfigFile(join(ROOT, "test/fixtures/stripe/everyday.config.yaml")));
  const definitions = result.tools.map(toolDefinition);
  const customers = definitions.find((definition) => definition.name === "post_customers");
  const described = customers ? jsonBytes(describeOperation(customers, undefined)) : 0;
  return table(
    [
      "Stripe, 18 everyday operations",
      "tools/list (bytes / tokens, target ≤ 40,000 tokens)",
      "describe_operation post_customers (bytes, target ≤ 16 KB)",
    ],
    [[`${result.tools.length} tools`, `${result.toolsList.bytes} / ${result.toolsList.tokens}`, String(described)]],
  );
}
