import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Generated code imports the runtime by its package name; tests run it from source.
    alias: [
      { find: /^oapi-mcp-gen-runtime\/sdk$/, replacement: fileURLToPath(new URL("./runtime/sdk.ts", import.meta.url)) },
      {
        find: /^oapi-mcp-gen-runtime\/code$/,
        replacement: fileURLToPath(new URL("./runtime/code/index.ts", import.meta.url)),
      },
      {
        find: /^oapi-mcp-gen-runtime\/discovery$/,
        replacement: fileURLToPath(new URL("./runtime/discovery/index.ts", import.meta.url)),
      },
      {
        find: /^oapi-mcp-gen-runtime\/operation-index$/,
        replacement: fileURLToPath(new URL("./runtime/discovery/operation-index.ts", import.meta.url)),
      },
      { find: /^oapi-mcp-gen-runtime$/, replacement: fileURLToPath(new URL("./runtime/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Opt-in suites over large documents run with `npm run test:scale`.
    exclude: ["test/scale/**", "**/node_modules/**"],
    // Many files wait on child processes (npm, tsc, servers): a third worker on two cores keeps both busy.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
