// The release, as one script: the release workflow runs it on a version tag (and with --dry-run on every pull request),
// and the tests run it against a local registry. Its steps, in order:
//
//   verify     both packages at one version, the generator on exactly that runtime, the tag (if any) naming it,
//              a CHANGELOG section for it, no change entry left unversioned
//   install    npm ci
//   lint       npm run lint
//   generated  npm run generate:check (the committed trees are current)
//   test       npm test
//   build      npm run build
//   check      the pack check: no stray file, every entry point, the size budgets
//   pack       both tarballs, their SHA-256 sums and the release notes into --out
//   publish    the runtime, then the generator, to --registry (with provenance where the CI host vouches for the
//              build); a version the registry already has is left as it is, so a re-run finishes a partial release
//
//   node scripts/release.mjs [--dry-run] [--skip step,…] [--registry URL] [--tag vX.Y.Z] [--out DIR] [--provenance]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = resolve(import.meta.dirname, "..");
const STEPS = ["verify", "install", "lint", "generated", "test", "build", "check", "pack", "publish"];
/** The two packages, in the order they publish: the generator depends on the runtime. */
const PACKAGES = [
  { name: "oapi-mcp-gen-runtime", folder: "runtime" },
  { name: "oapi-mcp-gen", folder: "." },
];

const USAGE = `usage: node scripts/release.mjs [options]

  --dry-run          every step, but the publish only says what it would send
  --skip STEPS       steps to leave out, comma-separated: ${STEPS.join(", ")}
  --registry URL     where to publish (default: npm's configured registry)
  --tag vX.Y.Z       the tag being released (default: GITHUB_REF_NAME on a tag); it must name the version
  --out DIR          where the tarballs, SHA256SUMS and RELEASE_NOTES.md go (default: .tmp/release)
  --provenance       publish with npm provenance (default: on in GitHub Actions with an OIDC token)
  -h, --help         this help
`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      "dry-run": { type: "boolean", default: false },
      skip: { type: "string", default: "" },
      registry: { type: "string" },
      tag: { type: "string" },
      out: { type: "string", default: ".tmp/release" },
      provenance: { type: "boolean" },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const dryRun = values["dry-run"];
const skipped = new Set(values.skip.split(",").filter(Boolean));
for (const step of skipped) if (!STEPS.includes(step)) fail(`--skip ${step}: the steps are ${STEPS.join(", ")}`);
const out = resolve(ROOT, values.out);
const tag = values.tag ?? (process.env.GITHUB_REF_TYPE === "tag" ? process.env.GITHUB_REF_NAME : undefined);
// GitHub Actions vouches for the build (npm's provenance) when the job may request an OIDC token.
const provenance = values.provenance ?? Boolean(process.env.GITHUB_ACTIONS && process.env.ACTIONS_ID_TOKEN_REQUEST_URL);
const registry = values.registry ?? npm(["config", "get", "registry"], { capture: true }).trim();

/** Stops the release with one line saying why. */
function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

/** Runs npm in the repository; its output is shown, or returned with `capture`. */
function npm(args, { capture = false, cwd = ROOT, allowFailure = false } = {}) {
  const result = spawnSync("npm", args, { cwd, encoding: "utf8", stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit" });
  if (result.status !== 0 && !allowFailure) fail(`npm ${args.join(" ")} failed${capture ? `:\n${result.stderr}` : ""}`);
  return capture ? result.stdout : String(result.status);
}

/** A package's manifest. */
function manifestOf(folder) {
  return JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8"));
}

/** The CHANGELOG section of a version, without its heading; undefined when there is none. */
function changelogSection(folder, version) {
  const file = join(ROOT, folder, "CHANGELOG.md");
  if (!existsSync(file)) return undefined;
  const sections = readFileSync(file, "utf8").split(/^## /m);
  const section = sections.find((text) => text.split("\n")[0]?.trim() === version);
  return section?.slice(section.indexOf("\n") + 1).trim();
}

/** The version both packages are at, once everything that must agree on it does. */
function verify() {
  const [runtime, generator] = PACKAGES.map(({ folder }) => manifestOf(folder));
  const version = generator.version;
  if (runtime.version !== version) fail(`oapi-mcp-gen is at ${version} but oapi-mcp-gen-runtime at ${runtime.version}: they move together`);
  const pinned = generator.dependencies?.["oapi-mcp-gen-runtime"];
  if (pinned !== version) fail(`oapi-mcp-gen depends on oapi-mcp-gen-runtime ${pinned}, not exactly ${version}`);
  if (tag !== undefined && tag !== `v${version}`) fail(`the tag ${tag} does not name the version ${version} (v${version})`);
  for (const { name, folder } of PACKAGES) {
    if (changelogSection(folder, version) === undefined)
      fail(`${join(folder, "CHANGELOG.md")} has no section for ${version}: run npx changeset version`);
    if (!manifestOf(folder).repository?.url) fail(`${name} names no repository: provenance needs it`);
  }
  const pending = readdirSync(join(ROOT, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md");
  if (pending.length > 0) {
    const message = `change entries not yet versioned (${pending.join(", ")}): run npx changeset version first`;
    if (tag !== undefined) fail(message);
    process.stdout.write(`release: note: ${message}\n`);
  }
  return version;
}

/** Packs both packages into `out` (built already), with their sums and the release notes. */
function pack(version) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const sums = [];
  const notes = [`# v${version}`];
  for (const { name, folder } of PACKAGES) {
    const workspace = folder === "." ? [] : ["--workspace", name];
    const [packed] = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", out, ...workspace], { capture: true }));
    const bytes = readFileSync(join(out, packed.filename));
    sums.push(`${createHash("sha256").update(bytes).digest("hex")}  ${packed.filename}`);
    notes.push(`## ${name}\n\n${changelogSection(folder, version)}`);
  }
  writeFileSync(join(out, "SHA256SUMS"), `${sums.join("\n")}\n`);
  writeFileSync(join(out, "RELEASE_NOTES.md"), `${notes.join("\n\n")}\n`);
  process.stdout.write(`release: packed into ${out}:\n${sums.map((line) => `  ${line}`).join("\n")}\n`);
}

/** Publishes each tarball the registry does not have yet, the runtime first. */
function publish(version) {
  for (const { name } of PACKAGES) {
    const file = join(out, `${name}-${version}.tgz`);
    if (!existsSync(file)) fail(`${file} is missing: the pack step makes it`);
    const known = spawnSync("npm", ["view", `${name}@${version}`, "version", "--registry", registry], { cwd: out, encoding: "utf8" });
    if (known.status === 0 && known.stdout.trim() === version) {
      process.stdout.write(`release: ${name}@${version} is on ${registry} already; left as it is\n`);
      continue;
    }
    const args = ["publish", file, "--registry", registry, "--access", "public", "--tag", "latest", "--loglevel=warn"];
    if (provenance) args.push("--provenance");
    if (dryRun) args.push("--dry-run");
    npm(args, { cwd: out });
  }
}

const version = verify();
process.stdout.write(`release: v${version}${dryRun ? " (dry run)" : ""} to ${registry}${provenance ? " with provenance" : ""}\n`);
const commands = {
  install: ["ci", "--no-audit", "--no-fund"],
  lint: ["run", "-s", "lint"],
  generated: ["run", "-s", "generate:check"],
  test: ["test"],
  build: ["run", "-s", "build"],
};
for (const step of STEPS.slice(1)) {
  if (skipped.has(step)) continue;
  process.stdout.write(`release: ${step}\n`);
  if (step in commands) npm(commands[step]);
  else if (step === "check") {
    const checked = spawnSync(process.execPath, [join(ROOT, "dist/scripts/pack-check.js")], { cwd: ROOT, stdio: "inherit" });
    if (checked.status !== 0) fail("the pack check failed");
  } else if (step === "pack") pack(version);
  else if (step === "publish") publish(version);
}
