import { GENERATED_HASH_HEADER } from "./header.js";
import { oneLine } from "./literal.js";

/** Where the generator read its inputs and wrote its output, as the user typed them (relative to their project). */
export interface GenerationPaths {
  spec: string;
  /** Absent when the run selected every operation without a config file. */
  config?: string;
  out: string;
  /** The `--overlay` files, in order (the config's own `overlays` need no flag). */
  overlays?: readonly string[];
}

/** The `--overlay` arguments of a command line that repeats a run, each path one shell word. */
export function overlayArguments(paths: GenerationPaths): string[] {
  return (paths.overlays ?? []).flatMap((file) => ["--overlay", shellWord(file)]);
}

/** The paths the CI workflow names when the caller gives none. */
export const DEFAULT_PATHS: GenerationPaths = { spec: "openapi.yaml", config: "oapi-mcp.config.yaml", out: "generated" };

/**
 * A two-stage image built from the generated package (and its lockfile, when `npm install` wrote one: `npm ci`, else
 * `npm install`); `runtimeCopies` (a vendored runtime, its tarball) are copied in before the install. It runs as the
 * unprivileged `node` user. Both stages install from npm's registry unless the build names another
 * (`--build-arg npm_config_registry=…`); a registry's token never goes into an image this way, only its address.
 */
export function dockerfileText(name: string, runtimeCopies: readonly string[] = []): string {
  const vendor = runtimeCopies.map((line) => `${line}\n`).join("");
  const install = (flags: string) => `RUN if [ -f package-lock.json ]; then npm ci ${flags}; else npm install ${flags}; fi`;
  return `${GENERATED_HASH_HEADER}# Build context: this folder (with its package-lock.json when \`npm install\` wrote one).
#   docker build -f deploy/Dockerfile -t ${imageName(name)} .
# From a registry of your own: --build-arg npm_config_registry=https://npm.example.com/
FROM node:22-slim AS build
ARG npm_config_registry=https://registry.npmjs.org/
WORKDIR /app
COPY package*.json ./
${vendor}${install("--no-audit --no-fund")}
COPY . .
RUN npm run build

FROM node:22-slim
ARG npm_config_registry=https://registry.npmjs.org/
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY package*.json ./
${vendor}${install("--omit=dev --no-audit --no-fund")} && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/server.js"]
`;
}

/** What the image build leaves out of its context: installs and build output of the host. */
export function dockerignoreText(bundle = false): string {
  return `${GENERATED_HASH_HEADER}node_modules
dist
${bundle ? "*.mcpb\n" : ""}`;
}

/** A GitHub Actions workflow that fails when the generated folder no longer matches the document or stops compiling. */
export function ciWorkflowText(paths: GenerationPaths, runtime?: string): string {
  const generate = [
    `npx oapi-mcp-gen ${shellWord(paths.spec)}`,
    ...(paths.config ? [`--config ${shellWord(paths.config)}`] : []),
    ...(paths.overlays ?? []).map((file) => `--overlay ${shellWord(file)}`),
    `--out ${shellWord(paths.out)}${runtime ? ` --runtime ${runtime}` : ""} --check`,
  ];
  return `${GENERATED_HASH_HEADER}# Copy this file to .github/workflows/ as it is: it checks ${yamlComment(paths.out)}
# against the OpenAPI document on every pull request.
---
name: MCP server is current
"on":
  pull_request:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
          cache: npm
      - run: npm ci
      - name: The generated server matches the document
        run: >-
${generate.map((line) => `          ${line}`).join("\n")}
      - name: The generated server builds
        run: >-
          npx tsc -p ${shellWord(`${paths.out}/tsconfig.json`)}
          --outDir "$RUNNER_TEMP/mcp-server-build"
`;
}

/** A Docker image name from the server name. */
export function imageName(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z0-9._-]/g, "-")}-mcp`;
}

/** A path as one POSIX shell word (single-quoted unless it is plainly safe). */
export function shellWord(path: string): string {
  const text = yamlComment(path);
  return /^[A-Za-z0-9_./@:-]+$/.test(text) ? text : `'${text.replaceAll("'", `'"'"'`)}'`;
}

/** A path inside a YAML comment or block: one line. */
function yamlComment(text: string): string {
  return oneLine(text, "?");
}
