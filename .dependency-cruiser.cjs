/** The architecture's import rules (`npm run lint` runs them): which layer may import which, and no circles. */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module cannot reach itself through its imports.",
      from: {},
      to: { circular: true },
    },
    {
      name: "openapi-is-the-base",
      severity: "error",
      comment: "openapi/ is the shared OpenAPI layer: it imports no generator, runtime, search or templates code.",
      from: { path: "^openapi/" },
      to: { path: "^(generator|runtime|search|templates)/|^node_modules/oapi-mcp-gen-runtime/" },
    },
    {
      name: "runtime-stands-alone",
      severity: "error",
      comment: "runtime/ is the package a generated server deploys: it imports nothing of the generator's.",
      from: { path: "^runtime/" },
      to: { path: "^(generator|templates|openapi|search)/" },
    },
    {
      name: "search-is-not-the-generator",
      severity: "error",
      comment: "search/ serves documents: it imports neither the generator nor its templates.",
      from: { path: "^search/" },
      to: { path: "^(generator|templates)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)dist/|^node_modules/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "types", "default"] },
  },
};
