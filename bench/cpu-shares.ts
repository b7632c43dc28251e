/** Where a run's CPU goes, from V8's CPU profiles of its threads: the generator's own code, each library, loading code, GC. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The parts of a `.cpuprofile` read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Frames of Node's module loaders: a sample under one is time spent loading code (reading, compiling, top-level). */
const LOADING = /^(Module\._compile|loadAndTranslate|compileSourceTextModule|moduleEvaluation|require)$/;
/** Built-in functions that call into the kernel for files. */
const FILE_CALLS = new Set(["open", "read", "close", "fstat", "writeBuffer", "writeString", "openFileHandle", "readFileUtf8"]);

/** The package a script belongs to (`prettier`, `@ts-morph/common`), or the generator's own code, or none. */
function ownerOf(url: string): string | undefined {
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (library) return library;
  return /\/dist\//.test(url) ? "the generator's own code (with the built-ins it calls)" : undefined;
}

/** Who spent a sample: GC, the file system, loading code, a library, or the generator's own code (nearest on the stack). */
function whoSpent(id: number, byId: Map<number, CpuProfile["nodes"][number]>, parent: Map<number, number>): string {
  const leaf = byId.get(id)?.callFrame;
  if (!leaf || leaf.functionName === "(idle)") return "idle";
  if (leaf.functionName === "(garbage collector)") return "V8's garbage collector";
  if (FILE_CALLS.has(leaf.functionName) && !leaf.url) return "file system calls";
  let owner: string | undefined;
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (!frame) break;
    if (LOADING.test(frame.functionName)) return "loading code (reading, compiling, top-level)";
    owner ??= ownerOf(frame.url);
  }
  return owner ?? "Node and V8 (start-up, messaging)";
}

/** CPU time by who spent it, in ms, summed over every profile in a folder (one a thread). */
export async function cpuShares(folder: string): Promise<Map<string, number>> {
  const shares = new Map<string, number>();
  const add = (key: string, ms: number) => shares.set(key, (shares.get(key) ?? 0) + ms);
  for (const file of (await readdir(folder)).filter((name) => name.endsWith(".cpuprofile"))) {
    const profile: CpuProfile = JSON.parse(await readFile(join(folder, file), "utf8"));
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    profile.samples.forEach((id, index) => {
      add(whoSpent(id, byId, parent), (profile.timeDeltas[index + 1] ?? 0) / 1000);
    });
  }
  shares.delete("idle");
  return shares;
}
