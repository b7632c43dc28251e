// The runtime's two ways beside the generated package (vendored, packed): apart from user-project.test.ts so the two
// files run side by side.
import { execFile as execFileCallback, execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { buildDockerfile } from "../helpers/dockerfile.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";
import { callImage, npmEnvironment } from "../helpers/user-project.js";

const execFile = promisify(execFileCallback);

describe("a vendored runtime: the generated folder installs with no package of ours on any registry", () => {
  it("--runtime vendor, in a project whose .gitignore holds dist/ and build/: commits whole, passes --check in a clean clone, builds there", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "oapi-vendor-"));
    await chmod(scratch, 0o755);
    // npm's own registry, where oapi-mcp-gen-runtime is not published: only the vendored copy can satisfy it.
    const env = npmEnvironment();
    const upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
    const git = (args: string[], cwd: string) =>
      execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, encoding: "utf8" });
    try {
      // A TypeScript project's usual ignore rules: the vendored runtime's dist/ would fall under the first.
      const project = join(scratch, "project");
      await mkdir(project);
      git(["init", "-q"], project);
      await writeFile(join(project, ".gitignore"), "node_modules/\ndist/\nbuild/\n*.tgz\n");
      const args = (out: string) => [
        join(ROOT, "examples/memos/openapi.yaml"),
        "--config",
        join(ROOT, "examples/memos/oapi-mcp.config.yaml"),
        "--out",
        out,
      ];
      const result = runCli([...args("generated"), "--runtime", "vendor"], project);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).not.toContain("git ignores");
      const generated = join(project, "generated");
      const manifest = JSON.parse(await readFile(join(generated, "package.json"), "utf8"));
      expect(manifest.dependencies).toEqual({ "oapi-mcp-gen-runtime": "file:vendor/oapi-mcp-gen-runtime" });
      expect(await readFile(join(generated, ".npmrc"), "utf8")).toContain("install-links=true");
      // The generated README's deploy steps, with no `npm install` before them: no lockfile exists.
      expect(await readdir(generated)).not.toContain("package-lock.json");
      git(["add", "-A"], project);
      git(["commit", "-q", "-m", "generated"], project);
      const tracked = git(["ls-files", "generated/vendor"], project).split("\n");
      expect(tracked).toContain("generated/vendor/oapi-mcp-gen-runtime/dist/index.js");
      // A clean clone has everything: --check passes there (no --runtime needed), and the Dockerfile's steps build.
      const clone = join(scratch, "clone");
      git(["clone", "-q", project, clone], scratch);
      const check = runCli([...args("generated"), "--check"], clone);
      expect(check.status, check.stderr).toBe(0);
      const image = await buildDockerfile(
        join(clone, "generated/deploy/Dockerfile"),
        join(clone, "generated"),
        join(scratch, "docker"),
        env,
      );
      expect(await readdir(join(image.workdir, "node_modules"))).toContain("oapi-mcp-gen-runtime");
      expect(await readdir(join(image.workdir, "node_modules"))).not.toContain("typescript");
      expect((await callImage(image, env, upstream.url)).isError).toBeFalsy();
      // A rule that wins over the folder's own (a file of it ignored by name) is named by the run.
      await writeFile(join(clone, ".git/info/exclude"), "generated/README.md\n");
      const named = runCli([...args("generated"), "--check"], clone);
      expect(named.stderr).toContain(
        "warning: git ignores 1 generated file, so a clone will lack it and --check there fails: generated/README.md (.git/info/exclude:1: generated/README.md)",
      );
      // Regenerating leaves it as it is; the registry mode, asked for, drops the vendored copy again.
      expect(runCli([...args("generated"), "--runtime", "vendor", "--check"], project).status).toBe(0);
      expect(runCli([...args("generated"), "--runtime", "registry"], project).status).toBe(0);
      expect(await readdir(join(generated, "vendor/oapi-mcp-gen-runtime")).catch(() => [])).toEqual([]);
    } finally {
      await upstream.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 600_000);
});

describe("the runtime's packed tarball beside the generated package: no package of ours on any registry", () => {
  it("--runtime tarball generates a folder whose Dockerfile steps install the tarball put there, without a lockfile, then serve", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "oapi-tarball-"));
    await chmod(scratch, 0o755);
    const env = npmEnvironment();
    const upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
    try {
      const generated = join(scratch, "generated");
      const memos = [
        join(ROOT, "examples/memos/openapi.yaml"),
        "--config",
        join(ROOT, "examples/memos/oapi-mcp.config.yaml"),
        "--out",
        generated,
      ];
      const result = runCli([...memos, "--runtime", "tarball"], scratch);
      expect(result.status, result.stderr).toBe(0);
      const version = JSON.parse(await readFile(join(ROOT, "runtime/package.json"), "utf8")).version as string;
      const tarball = `oapi-mcp-gen-runtime-${version}.tgz`;
      expect(JSON.parse(await readFile(join(generated, "package.json"), "utf8")).dependencies).toEqual({
        "oapi-mcp-gen-runtime": `file:${tarball}`,
      });
      expect(await readFile(join(generated, "README.md"), "utf8")).toContain(
        `put \`${tarball}\` (\`npm pack\` of the runtime) in this folder`,
      );
      expect(result.stderr).toContain(
        `warning: --runtime tarball: ${join(generated, tarball)} is not there yet; put the runtime's packed tarball there (the ${tarball} you installed the generator with`,
      );
      // What the generated README says: the runtime's `npm pack` in this folder (`npm test` has just built it).
      await execFile("npm", ["pack", "--ignore-scripts", "--pack-destination", generated, "--workspace", "oapi-mcp-gen-runtime"], {
        cwd: ROOT,
      });
      const image = await buildDockerfile(join(generated, "deploy/Dockerfile"), generated, join(scratch, "docker"), env);
      expect(await readdir(join(image.workdir, "node_modules/oapi-mcp-gen-runtime/dist"))).toContain("index.js");
      expect((await callImage(image, env, upstream.url)).isError).toBeFalsy();
      // The tarball is the user's file: regenerating and --check leave it, and need no --runtime to stay in this mode.
      const check = runCli([...memos, "--check"], scratch);
      expect(check.status).toBe(0);
      expect(check.stderr).not.toContain("is not there yet");
      expect(await readdir(generated)).toContain(tarball);
    } finally {
      await upstream.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 600_000);
});
