/** Rules that keep a house's folders in order: each imports none of the folders after it. */
function layers(house, order) {
  return order.slice(0, -1).map((folder, index) => ({
    name: `${house}-${folder}-below-${order.slice(index + 1).join("-")}`,
    severity: "error",
    comment: `${house}/ runs ${order.join(" → ")}: ${folder}/ imports none of the folders after it.`,
    from: { path: `^${house}/${folder}/` },
    to: { path: `^${house}/(${order.slice(index + 1).join("|")})/` },
  }));
}

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
      comment:
        "openapi/ is the shared OpenAPI layer: it imports no generator, search or templates code, and of the runtime only its face and the address check both use (`oapi-mcp-gen-runtime/address`).",
      from: { path: "^openapi/" },
      to: { path: "^(generator|runtime|search|templates)/", pathNot: "^runtime/(index|base/public-address)\\.ts$" },
    },
    {
      name: "runtime-stands-alone",
      severity: "error",
      comment: "runtime/ is the package a generated server deploys: it imports nothing of the generator's.",
      from: { path: "^runtime/" },
      to: { path: "^(generator|templates|openapi|search)/" },
    },
    {
      name: "templates-own-their-types",
      severity: "error",
      comment: "templates/ write the generated modules from types they own or the runtime's: no generator, openapi or search code.",
      from: { path: "^templates/" },
      to: { path: "^(generator|openapi|search)/" },
    },
    {
      name: "generator-stages-by-their-faces",
      severity: "error",
      comment:
        "Code outside generator/ reaches a stage through its index.ts face; inside, stages import each other's files, so a run loads only what it needs.",
      from: { pathNot: "^generator/" },
      to: { path: "^generator/[a-z]+/", pathNot: "^generator/[a-z]+/index\\.ts$|^generator/config\\.schema\\.json$" },
    },
    {
      name: "generator-ground-floor",
      severity: "error",
      comment: "generator/base/ and cache/ stand under every stage: they import no other stage.",
      from: { path: "^generator/(base|cache)/" },
      to: { path: "^generator/", pathNot: "^generator/(base|cache)/" },
    },
    {
      name: "generator-stage-tools",
      severity: "error",
      comment:
        "config/, schema/, types/ and layout/ serve the stages above them: they import none of model, select, output, threads, cli or the pipeline.",
      from: { path: "^generator/(config|schema|types|layout)/" },
      to: { path: "^generator/(model|select|output|threads|cli)/|^generator/(generate|index)\\.ts$" },
    },
    {
      name: "generator-stages-below-the-pipeline",
      severity: "error",
      comment: "The stages know nothing of the pipeline that runs them (generate.ts) or of the command line.",
      from: { path: "^generator/(model|select|output|threads)/" },
      to: { path: "^generator/cli/|^generator/(generate|index)\\.ts$" },
    },
    {
      name: "generator-select-before-the-model",
      severity: "error",
      comment: "The stages run config → select → model → layout → output: select/ imports none of the later stages.",
      from: { path: "^generator/select/" },
      to: { path: "^generator/(model|layout|output|threads)/" },
    },
    {
      name: "generator-model-before-the-layout",
      severity: "error",
      comment: "The stages run config → select → model → layout → output: model/ imports neither select/ nor the later stages.",
      from: { path: "^generator/model/" },
      to: { path: "^generator/(select|layout|output|threads)/" },
    },
    {
      name: "generator-layout-before-the-output",
      severity: "error",
      comment: "The stages run config → select → model → layout → output: layout/ imports none of output/ or threads/.",
      from: { path: "^generator/layout/" },
      to: { path: "^generator/(output|threads|model|select)/" },
    },
    {
      name: "openapi-and-search-folders-by-their-faces",
      severity: "error",
      comment:
        "A folder of openapi/ or search/ is reached through its index.ts face: files of one folder import each other, every other file (tests too) imports the face.",
      from: { path: "^(openapi|search|openapi/[a-z]+|search/[a-z]+|search/[a-z]+/[a-z]+)/[^/]+$" },
      to: { path: "^(?:openapi|search)/.+/[^/]+$", pathNot: ["^$1/[^/]+$", "/index\\.ts$"] },
    },
    {
      name: "openapi-and-search-faces-from-outside",
      severity: "error",
      comment: "Code outside openapi/ and search/ reaches their folders through the faces too.",
      from: { pathNot: "^(openapi|search)/" },
      to: { path: "^(?:openapi|search)/.+/[^/]+$", pathNot: "/index\\.ts$" },
    },
    ...layers("openapi", ["fetch", "document", "references", "model", "typing"]),
    ...layers("search", ["documents", "views", "catalogue", "requests", "tools"]),
    {
      name: "search-is-not-the-generator",
      severity: "error",
      comment: "search/ serves documents: it imports neither the generator nor its templates.",
      from: { path: "^search/" },
      to: { path: "^(generator|templates)/" },
    },
    {
      name: "runtime-base-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/base/ imports nothing of schema, result, call, tools, discovery, protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/base/" },
      to: { path: "^runtime/(schema|result|call|tools|discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-schema-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/schema/ imports nothing of result, call, tools, discovery, protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/schema/" },
      to: { path: "^runtime/(result|call|tools|discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-result-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/result/ imports nothing of call, tools, discovery, protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/result/" },
      to: { path: "^runtime/(call|tools|discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-call-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/call/ imports nothing of tools, discovery, protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/call/" },
      to: { path: "^runtime/(tools|discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-tools-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/tools/ imports nothing of discovery, protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/tools/" },
      to: { path: "^runtime/(discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-discovery-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/discovery/ imports nothing of protocol, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/discovery/" },
      to: { path: "^runtime/(protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-protocol-below-what-stands-on-it",
      severity: "error",
      comment:
        "runtime/protocol/ imports nothing of discovery, http, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/protocol/" },
      to: { path: "^runtime/(discovery|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-http-below-discovery-serve",
      severity: "error",
      comment:
        "runtime/http/ imports nothing of discovery, serve: the layers run base, schema, result, call, tools, then discovery and protocol side by side, http, serve.",
      from: { path: "^runtime/http/" },
      to: { path: "^runtime/(discovery|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-sign-in-between-http-and-serve",
      severity: "error",
      comment:
        "runtime/sign-in/ (resource mode's guard, proxy mode's authorization server, their settings and shared state) stands on http/, tools/ and the layers under them, and under serve/: it imports nothing of discovery, protocol, code, telemetry or serve.",
      from: { path: "^runtime/sign-in/" },
      to: { path: "^runtime/(discovery|protocol|code|telemetry|serve)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-sign-in-reached-from-serve",
      severity: "error",
      comment:
        "Only serve/ (and the package's face) starts sign-in: the layers under it reach it by the interfaces they own (http/sign-in-port.ts), never its files.",
      from: { path: "^runtime/", pathNot: "^runtime/(sign-in|serve)/|^runtime/index\\.ts$" },
      to: { path: "^runtime/sign-in/" },
    },
    {
      name: "runtime-telemetry-between-http-and-serve",
      severity: "error",
      comment:
        "runtime/telemetry/ (metrics and traces) stands on http/'s port and base/, under serve/: it imports nothing of tools, discovery, protocol, code, sign-in or serve.",
      from: { path: "^runtime/telemetry/" },
      to: { path: "^runtime/(schema|result|call|tools|discovery|protocol|code|sign-in|serve)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "runtime-telemetry-reached-from-serve",
      severity: "error",
      comment:
        "Only serve/ (and the package's face) starts telemetry: the layers under it reach it by the interfaces they own (http/telemetry-port.ts, base/request-scope.ts's RequestTrace), never its files.",
      from: { path: "^runtime/", pathNot: "^runtime/(telemetry|serve)/|^runtime/index\\.ts$" },
      to: { path: "^runtime/telemetry/" },
    },
    {
      name: "a-server-without-telemetry-loads-none",
      severity: "error",
      comment:
        "Telemetry and its packages load only when switched on: serve/ reaches runtime/telemetry/ by a dynamic import (its environment reader aside).",
      from: { path: "^runtime/", pathNot: "^runtime/telemetry/" },
      to: {
        path: "^runtime/telemetry/",
        pathNot: "^runtime/telemetry/telemetry-env\\.ts$",
        dynamic: false,
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "runtime-code-below-what-stands-on-it",
      severity: "error",
      comment: "runtime/code/ stands beside discovery/, above tools/: it imports nothing of discovery, protocol, http or serve.",
      from: { path: "^runtime/code/" },
      to: { path: "^runtime/(discovery|protocol|http|serve|sign-in|telemetry)/|^runtime/(index|sdk)\\.ts$" },
    },
    {
      name: "a-server-without-code-mode-loads-no-engine",
      severity: "error",
      comment:
        "Only a server with code mode loads runtime/code/ (the JavaScript engine): a dynamic import or a type reaches it, nothing else.",
      from: { path: "^runtime/", pathNot: "^runtime/code/" },
      to: { path: "^runtime/code/", dynamic: false, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "tools-mode-loads-no-discovery",
      severity: "error",
      comment:
        "A tools-mode server loads nothing of runtime/discovery/: only a dynamic import (when discovery data is given) or a type reaches it.",
      from: { path: "^runtime/", pathNot: "^runtime/discovery/" },
      to: { path: "^runtime/discovery/", dynamic: false, dependencyTypesNot: ["type-only"] },
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
