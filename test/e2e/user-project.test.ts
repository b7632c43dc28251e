import { type ChildProcess, exec as execCallback, execFile as execFileCallback, execFileSync, spawn } from "node:child_process";
import { chmod, copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/free-port.js";
import { connectClient } from "../../scripts/mcp-client.js";
import { ROOT } from "../helpers/cli.js";
import { buildDockerfile } from "../helpers/dockerfile.js";
import { type LocalRegistry, startLocalRegistry } from "../helpers/local-registry.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";
import { accountIds, npmEnvironment } from "../helpers/user-project.js";

const exec = promisify(execCallback);
const execFile = promisify(execFileCallback);

/** The release script's steps the suite has already taken (its install, lint, generated check, tests and build). */
const SUITE_STEPS = "install,lint,generated,test,build";

/** A production install of a generated server must stay small (the runtime and what it needs, nothing else). */
const MAX_PRODUCTION_BYTES = 40 * 1024 * 1024;

/** The shell block of the README's "Use it in your project" section, one command a line, comments dropped. */
async function readmeCommands(): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.split("## Use it in your project")[1]?.split("\n## ")[0] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

/** Bytes of every file under a folder. */
async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe("in a user's own project, from a real registry the release script published both packages to", () => {
  let scratch: string;
  let project: string;
  let registry: LocalRegistry;
  let env: NodeJS.ProcessEnv;
  /** What the release script printed in each run, and what the registry had after each. */
  const releases: Record<"dryRun" | "afterDryRun" | "release" | "afterRelease" | "rerun", string> = {
    dryRun: "",
    afterDryRun: "",
    release: "",
    afterRelease: "",
    rerun: "",
  };
  const servers: ChildProcess[] = [];
  const upstreamReady = startUpstream((request, res) => {
    if (request.path === "/api/v1/memos")
      sendJson(res, 200, { memos: [{ name: "memos/abc", state: "NORMAL", content: "hello", visibility: "PRIVATE" }], nextPageToken: "" });
    else sendJson(res, 404, { code: 5, message: "not found" });
  });

  /** Runs a command in the project as the user would, failing with its output (asynchronously: the registry and upstream serve from this process). */
  async function sh(command: string, cwd = project): Promise<string> {
    try {
      return (await exec(command, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })).stdout;
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} (in ${cwd}) failed:\n${failure.stdout ?? ""}\n${failure.stderr ?? ""}`);
    }
  }

  /** Starts a server process, waits for /health, and drives tools/list and a tools/call through the SDK client. */
  async function serveAndCall(
    command: string[],
    cwd: string,
    extraEnv: Record<string, string>,
    options: { uid?: number; gid?: number; probe?: (base: string) => Promise<void> } = {},
  ) {
    const upstream = await upstreamReady;
    const port = await freePort();
    const { probe, ...ids } = options;
    const child = spawn(command[0] as string, command.slice(1), {
      cwd,
      env: { ...env, ...extraEnv, HOST: "127.0.0.1", PORT: String(port), API_BASE_URL: upstream.url.href },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      ...ids,
    });
    servers.push(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    // Healthy, and the child says it listens on this port: not some other server that answers there.
    for (;;) {
      const health = await fetch(`${base}/health`).catch(() => undefined);
      if (health?.ok && output.includes(`${base}/mcp`)) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const client = await connectClient(new URL(`${base}/mcp`), { Authorization: "Bearer user-token" });
    try {
      const { tools } = await client.listTools();
      const before = upstream.requests.length;
      const result = await client.callTool({ name: "memo_list_memos", arguments: { pageSize: 2 } });
      const sent = upstream.requests.slice(before);
      await probe?.(base);
      return { tools: tools.map((tool) => tool.name), result, sent };
    } finally {
      await client.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-(child.pid as number), "SIGTERM");
      await exited;
    }
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oapi-user-project-"));
    // The image's unprivileged user must be able to read what the build stage left.
    await chmod(scratch, 0o755);
    // Both packages published to a real registry by the release script's own steps (npm test has just built): a dry
    // run first, then the release, then a re-run of its publish step, as after a partial failure.
    registry = await startLocalRegistry(join(scratch, "registry"));
    const publisher = { ...npmEnvironment(), npm_config_userconfig: registry.publisherConfig };
    const release = async (...args: string[]) => {
      const script = [join(ROOT, "scripts/release.mjs"), "--registry", registry.url, "--out", join(scratch, "release"), ...args];
      const { stdout, stderr } = await execFile(process.execPath, script, { cwd: ROOT, env: publisher });
      return stdout + stderr;
    };
    const published = async () =>
      (
        await Promise.all(
          ["oapi-mcp-gen", "oapi-mcp-gen-runtime"].map((name) =>
            execFile("npm", ["view", name, "version", "--registry", registry.url], { env: publisher }).then(
              ({ stdout }) => `${name}@${stdout.trim()}`,
              () => `${name} absent`,
            ),
          ),
        )
      ).join(", ");
    releases.dryRun = await release("--dry-run", "--skip", `${SUITE_STEPS},check`);
    releases.afterDryRun = await published();
    releases.release = await release("--skip", SUITE_STEPS);
    releases.afterRelease = await published();
    releases.rerun = await release("--skip", `${SUITE_STEPS},check,pack`);
    // From here on npm knows only that registry, as a fresh machine configured for it would.
    env = { ...npmEnvironment(), npm_config_userconfig: registry.userConfig, npm_config_registry: registry.url };
    project = join(scratch, "app");
    await mkdir(project);
    await sh("npm init -y");
    await copyFile(join(ROOT, "examples/memos/openapi.yaml"), join(project, "openapi.yaml"));
    await writeFile(join(project, "README.md"), "# My app\n");
  }, 300_000);

  afterAll(async () => {
    for (const child of servers) {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
    }
    await registry?.close();
    await (await upstreamReady).close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("the release script: a dry run publishes nothing, the release both packages with their sums and notes, a re-run leaves them", async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    expect(releases.dryRun).toContain(`release: v${version} (dry run) to ${registry.url}`);
    expect(releases.dryRun).toContain(`+ oapi-mcp-gen@${version}`);
    expect(releases.afterDryRun).toBe("oapi-mcp-gen absent, oapi-mcp-gen-runtime absent");
    expect(releases.release).toMatch(/^oapi-mcp-gen-runtime@\S+: \d+ files, .*: ok$/m);
    expect(releases.afterRelease).toBe(`oapi-mcp-gen@${version}, oapi-mcp-gen-runtime@${version}`);
    const sums = await readFile(join(scratch, "release/SHA256SUMS"), "utf8");
    expect(sums).toMatch(
      new RegExp(`^[0-9a-f]{64}  oapi-mcp-gen-runtime-${version}\\.tgz\\n[0-9a-f]{64}  oapi-mcp-gen-${version}\\.tgz\\n$`),
    );
    const notes = await readFile(join(scratch, "release/RELEASE_NOTES.md"), "utf8");
    expect(notes).toMatch(new RegExp(`^# v${version}\\n\\n## oapi-mcp-gen-runtime\\n\\n### Minor Changes`));
    expect(releases.rerun).toContain(`release: oapi-mcp-gen-runtime@${version} is on ${registry.url} already; left as it is`);
    expect(releases.rerun).toContain(`release: oapi-mcp-gen@${version} is on ${registry.url} already; left as it is`);
  });

  it("the README's commands, run as written in a fresh CommonJS project, generate, build and serve", async () => {
    expect(JSON.parse(await readFile(join(project, "package.json"), "utf8")).type ?? "commonjs").toBe("commonjs");
    const commands = await readmeCommands();
    expect(commands[0]).toBe("npm install --save-dev oapi-mcp-gen");
    let cwd = project;
    let served = false;
    for (const command of commands) {
      const cd = /^cd (\S+)$/.exec(command);
      if (cd) {
        cwd = join(cwd, cd[1] as string);
        continue;
      }
      const start = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(command);
      if (start) {
        const assignments = Object.fromEntries(
          (start[1] as string)
            .trim()
            .split(" ")
            .map((pair) => pair.split("=") as [string, string]),
        );
        const { tools, result, sent } = await serveAndCall(["npm", "start"], cwd, assignments);
        expect(tools).toContain("memo_list_memos");
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(result.structuredContent).toEqual({
          memos: [{ name: "memos/abc", state: "NORMAL", content: "hello", visibility: "PRIVATE" }],
          nextPageToken: "",
        });
        expect(sent).toHaveLength(1);
        expect(sent[0]?.query.get("pageSize")).toBe("2");
        expect(sent[0]?.headers.authorization).toBe("Bearer user-token");
        served = true;
        continue;
      }
      await sh(command, cwd);
    }
    expect(served).toBe(true);
    // The runtime came from the registry, as a user's would (npm's own has none): installed, not linked to this repository.
    const installed = join(project, "generated/node_modules/oapi-mcp-gen-runtime");
    expect((await lstat(installed)).isSymbolicLink()).toBe(false);
    const { version } = JSON.parse(await readFile(join(ROOT, "runtime/package.json"), "utf8"));
    expect(JSON.parse(await readFile(join(installed, "package.json"), "utf8")).version).toBe(version);
    expect(await readFile(join(project, "oapi-mcp.config.yaml"), "utf8")).toMatch(/- MemoService_ListMemos {2}# memo_list_memos/);
    expect(await readdir(join(project, "generated/dist"))).toContain("server.js");
  }, 600_000);

  it("the typed client from TypeScript, in a CommonJS and an ESM project: the built client with its declarations", async () => {
    const upstream = await upstreamReady;
    const tsc = join(project, "generated/node_modules/.bin/tsc");
    const program = (from: string) =>
      [
        `import { createClient } from "${from}";`,
        `const memos = createClient({ baseUrl: ${JSON.stringify(upstream.url.href)}, authorization: "Bearer t" });`,
        "// @ts-expect-error pageSize is a number: the declarations type every method",
        'void (() => memos.memo_list_memos({ pageSize: "two" }));',
        "memos.memo_list_memos({ pageSize: 2 }).then((page) => console.log(JSON.stringify(page.memos?.map((memo) => memo.name))));",
      ].join("\n");
    // The same program as CommonJS (node10 resolution) and as ESM (NodeNext), each compiled and run from the project.
    const builds: [source: string, module: string, resolution: string, built: string][] = [
      ["use-cjs.ts", "commonjs", "node10", "use-cjs.js"],
      ["use-esm.mts", "NodeNext", "NodeNext", "use-esm.mjs"],
    ];
    for (const [source, module, moduleResolution, built] of builds) {
      await writeFile(join(project, source), program("./generated/dist/client.js"));
      const compilerOptions = { module, moduleResolution, target: "ES2022", strict: true, types: [], skipLibCheck: true };
      await writeFile(join(project, `tsconfig.${source}.json`), JSON.stringify({ compilerOptions, files: [source] }));
      await sh(`${tsc} -p tsconfig.${source}.json`);
      expect((await sh(`node ${built}`)).trim(), source).toBe('["memos/abc"]');
    }
  }, 120_000);

  it("the generated Dockerfile's steps build from the lockfile, and the image starts as an unprivileged user", async () => {
    // The README's `npm install` (the first test) wrote the lockfile the build stage installs from.
    const generated = join(project, "generated");
    expect(await readdir(generated)).toContain("package-lock.json");
    // As docker build runs it: npm's settings of the machine, the registry only as the build argument the Dockerfile names.
    const image = await buildDockerfile(join(generated, "deploy/Dockerfile"), generated, join(scratch, "docker"), npmEnvironment(), {
      npm_config_registry: registry.url,
    });
    expect(image.user).toBe("node");
    expect(image.cmd).toEqual(["node", "dist/server.js"]);
    const production = await readdir(join(image.workdir, "node_modules"));
    expect(production).not.toContain("typescript");
    expect(await folderBytes(join(image.workdir, "node_modules"))).toBeLessThan(MAX_PRODUCTION_BYTES);
    // No Docker engine here: the image's user `node` becomes an unprivileged account of this machine.
    const unprivileged = userInfo().uid === 0 ? accountIds("nobody") : {};
    const { result } = await serveAndCall([process.execPath, ...image.cmd.slice(1)], image.workdir, image.env, unprivileged);
    expect(result.isError).toBeFalsy();
    expect(image.healthcheck).toContain("/health");
  }, 600_000);

  it("--version, the design's command, and a production install under 40 MB that builds and serves", async () => {
    expect((await sh("npx oapi-mcp-gen --version")).trim()).toBe(JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version);
    await rm(join(project, "generated"), { recursive: true, force: true });
    expect(await sh("npx oapi-mcp-gen openapi.yaml --out generated")).toMatch(/^wrote \d+ tools to generated/);
    const generated = join(project, "generated");
    await sh("npm install --omit=dev", generated);
    const installed = await readdir(join(generated, "node_modules"));
    for (const heavy of ["typescript", "ts-morph", "prettier", "openapi-typescript", "oapi-mcp-gen"])
      expect(installed).not.toContain(heavy);
    // What a deployment adds to switch a feature on (shared sign-in state, metrics, traces) is never installed with it.
    for (const optional of ["pg", "prom-client", "@opentelemetry"]) expect(installed).not.toContain(optional);
    const bytes = await folderBytes(join(generated, "node_modules"));
    expect(bytes).toBeLessThan(MAX_PRODUCTION_BYTES);
    await sh("npm run build", generated);
    // Switched on without its package, telemetry stops the server in one line that says what to add.
    const metricsOn = { ...env, API_BASE_URL: "http://127.0.0.1:9", PORT: "0", METRICS_TOKEN: "0123456789abcdef0123" };
    const refused = await execFile("node", ["dist/server.js"], { cwd: generated, env: metricsOn, encoding: "utf8" }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^[\w-]+: METRICS_PORT or METRICS_TOKEN is set, but prom-client is not installed: add metrics to server\.include in the generator's config and generate again/,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // Included in the config, its package is the generated folder's own: installed from its package.json, and served.
    await writeFile(
      join(project, "oapi-mcp.config.yaml"),
      "server:\n  name: memos\n  include: [metrics]\nselect:\n  tags: [MemoService]\n",
    );
    await sh("npx oapi-mcp-gen openapi.yaml --config oapi-mcp.config.yaml --out generated");
    await sh("npm install --omit=dev", generated);
    expect(await readdir(join(generated, "node_modules"))).toContain("prom-client");
    await sh("npx oapi-mcp-gen openapi.yaml --config oapi-mcp.config.yaml --out generated --check");
    const scraped: string[] = [];
    const probe = async (base: string) => {
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsOn.METRICS_TOKEN}` } });
      scraped.push(await response.text());
    };
    const { tools, result } = await serveAndCall(["npm", "start"], generated, { METRICS_TOKEN: metricsOn.METRICS_TOKEN }, { probe });
    expect(tools.length).toBeGreaterThan(0);
    expect(result.isError).toBeFalsy();
    expect(scraped.join("")).toMatch(/^mcp_tool_calls_total\{tool="memo_list_memos",outcome="ok"\} 1$/m);
  }, 300_000);

  it("builds and serves the same way when the host project is ESM", async () => {
    await sh("npm pkg set type=module");
    const generated = join(project, "generated");
    await sh("npm run build", generated);
    const { result } = await serveAndCall([process.execPath, "dist/server.js"], generated, {});
    expect(result.isError).toBeFalsy();
    await sh("npm pkg delete type");
  }, 120_000);

  it("--out . is refused in one line and leaves the project's README.md and node_modules untouched", async () => {
    const before = (await readdir(join(project, "node_modules"), { recursive: true })).sort();
    const result = await execFile("npx", ["oapi-mcp-gen", "openapi.yaml", "--out", "."], { cwd: project, env, encoding: "utf8" }).then(
      () => ({ status: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => ({ status: error.code, stderr: error.stderr }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: --out \.: holds a package\.json the generator did not write/);
    expect(await readFile(join(project, "README.md"), "utf8")).toBe("# My app\n");
    expect((await readdir(join(project, "node_modules"), { recursive: true })).sort()).toEqual(before);
  }, 60_000);

  it("npx oapi-mcp-gen search --stdio --memory, from the registry: loads the project's document and finds an operation", async () => {
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["oapi-mcp-gen", "search", "--stdio", "--memory"],
      cwd: project,
      env: env as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "user-project-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
        expect(result.isError, text).toBeFalsy();
        return text;
      };
      await call("load_openapi", { name: "memos", url: "./openapi.yaml" });
      expect(await call("search_endpoints", { name: "memos", keyword: "list memos" })).toContain("MemoService_ListMemos");
    } finally {
      await client.close();
    }
  }, 120_000);

  it("the committed generated/ installs from the registry and its Dockerfile's steps build an image that serves", async () => {
    const committed = join(scratch, "committed");
    const files = execFileSync("git", ["ls-files", "generated"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    for (const file of files) {
      await mkdir(dirname(join(committed, file)), { recursive: true });
      await copyFile(join(ROOT, file), join(committed, file));
    }
    const generated = join(committed, "generated");
    const image = await buildDockerfile(
      join(generated, "deploy/Dockerfile"),
      generated,
      join(scratch, "docker-committed"),
      npmEnvironment(),
      {
        npm_config_registry: registry.url,
      },
    );
    expect(await readdir(join(image.workdir, "node_modules"))).toContain("oapi-mcp-gen-runtime");
    expect(await readdir(join(image.workdir, "node_modules"))).not.toContain("typescript");
    const { result } = await serveAndCall([process.execPath, ...image.cmd.slice(1)], image.workdir, image.env);
    expect(result.isError).toBeFalsy();
  }, 300_000);
});
