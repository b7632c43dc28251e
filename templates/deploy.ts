import { GENERATED_HASH_HEADER, GENERATED_HEADER } from "./header.js";

/** Runtime package range the image installs. */
const RUNTIME_PACKAGE = "oapi-mcp-gen@^0.1.0";

/** A two-stage image: compile the generated tree, then run it with the runtime's dependencies only. */
export function dockerfileText(name: string): string {
  return `${GENERATED_HASH_HEADER}# Build context: the generated folder. docker build -f deploy/Dockerfile -t ${safe(name)}-mcp .
FROM node:22-slim AS build
WORKDIR /app
RUN npm init -y >/dev/null && npm install --no-audit --no-fund ${RUNTIME_PACKAGE} typescript@5.9.3 @types/node@22
COPY . ./src
RUN npx tsc -p src/deploy/tsconfig.json

FROM node:22-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
RUN npm init -y >/dev/null && npm pkg set type=module && npm install --no-audit --no-fund --omit=dev ${RUNTIME_PACKAGE}
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK CMD node -e "fetch('http://127.0.0.1:3000/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/server.js"]
`;
}

/** The compiler settings the image uses for the generated tree. */
export function deployTsconfigText(): string {
  return `${GENERATED_HEADER}${JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        outDir: "../../dist",
        rootDir: "..",
      },
      include: ["../**/*.ts"],
      exclude: ["../deploy"],
    },
    null,
    2,
  )}\n`;
}

/** A GitHub Actions workflow that fails when the generated folder no longer matches the document. */
export function ciWorkflowText(): string {
  return `${GENERATED_HASH_HEADER}# Copy to .github/workflows/ to check the generated MCP server after every API change.
name: MCP server is current
on: [push, pull_request]
env:
  OPENAPI_DOCUMENT: openapi.yaml # your OpenAPI document
  OAPI_MCP_CONFIG: oapi-mcp.config.yaml # your generator config
  OAPI_MCP_OUT: generated # this folder
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - run: npm ci
      - run: npx oapi-mcp-gen "$OPENAPI_DOCUMENT" --config "$OAPI_MCP_CONFIG" --out "$OAPI_MCP_OUT" --check
`;
}

function safe(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9._-]/g, "-");
}
