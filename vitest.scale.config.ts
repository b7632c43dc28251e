import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Opt-in suites over large real documents: `npm run test:scale`. */
export default defineConfig({
  resolve: {
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
  test: { include: ["test/scale/**/*.test.ts"], testTimeout: 600_000, hookTimeout: 120_000 },
});
