import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The longest files (bench/RESULTS.md, "Test suite"), started first so that none of them is left running alone at the end. */
const LONGEST_FIRST = [
  "test/e2e/user-project.test.ts",
  "test/e2e/user-project-runtime.test.ts",
  "test/search/catalogue/postgres-catalogue.test.ts",
  "test/generator/cli/cli-conventions.test.ts",
  "test/generator/cli/cli-golden.test.ts",
  "test/generator/hostile-names.test.ts",
  "test/runtime/discovery/discovery-quality.test.ts",
  "test/generator/output/large-tree.test.ts",
  "test/e2e/prism-documents.test.ts",
  "test/generator/output/typecheck.test.ts",
  "test/e2e/conformance.test.ts",
];

/** Vitest's order (by the last run's times where it has them), the longest files known to be long first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

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
        find: /^oapi-mcp-gen-runtime\/address$/,
        replacement: fileURLToPath(new URL("./runtime/base/public-address.ts", import.meta.url)),
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
    // A worker imports the generator, the runtime and their packages once, not once per file (a fifth of the suite's
    // CPU): no test file depends on another's module state, and each stops what it starts.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
