/**
 * The generator config's types, derived from generator/config.schema.json by json-schema-to-typescript.
 * Do not edit: run `npm run generate:config-types` after changing the schema (a test fails while they differ).
 */
/**
 * One scope, or a list of scopes a caller needs all of.
 */
export type ScopeList = string | string[];

/**
 * Which OpenAPI operations become MCP tools, and how they are shaped.
 */
export interface GeneratorConfig {
  /**
   * Editor hint; ignored by the generator.
   */
  $schema?: string;
  /**
   * OpenAPI Overlay files (1.0 or 1.1), applied in order to the document before anything reads it, relative to this config file; --overlay adds more after them. An action that matches nothing is a warning.
   */
  overlays?: string[];
  /**
   * Identity of the generated MCP server.
   */
  server: {
    /**
     * Server name reported in initialize.
     */
    name: string;
    /**
     * Server version reported in initialize.
     */
    version?: string;
    /**
     * Human-readable server title.
     */
    title?: string;
    /**
     * Instructions returned to clients in initialize.
     */
    instructions?: string;
    /**
     * Packages the generated folder depends on beside the runtime, for what a deployment switches on by environment: metrics (prom-client, for METRICS_PORT or METRICS_TOKEN), traces (OpenTelemetry's SDK and OTLP exporter, for OTEL_EXPORTER_OTLP_ENDPOINT), postgres (pg, for proxy mode's AUTH_STATE_URL). Written into the generated package.json, so --check stays true and the Docker image installs them.
     */
    include?: ("metrics" | "traces" | "postgres")[];
    /**
     * The generated package's npm name, scoped or not (e.g. @acme/memos-mcp). The npm entry of server.json names it. Default: the server name followed by -mcp-server.
     */
    packageName?: string;
    /**
     * The server's name in the MCP Registry, in reverse-DNS form with one slash (io.github.acme/memos-mcp-server; the namespace must be one you can prove: your GitHub account or organisation, or a domain). Written into server.json and as mcpName into package.json, which then loses private: true so that it can be published to npm. Unset: a placeholder the README asks to replace before publishing.
     */
    registryName?: string;
    /**
     * Where a deployment of this server is reachable for everyone, as PUBLIC_URL gives it to that deployment (https://mcp.example.com): server.json then lists it as a streamable-http remote at its /mcp.
     */
    publicUrl?: string;
    /**
     * mcpb: also write manifest.json for an MCP Bundle (a desktop extension that runs the server over stdio) and an npm run bundle script that builds the .mcpb file with @anthropic-ai/mcpb (as the --mcpb flag does).
     */
    bundle?: "mcpb";
  };
  /**
   * The allowlist: operationIds that become tools (in this order). Combine with or replace by `select`.
   *
   * @minItems 1
   */
  operations?: string[];
  /**
   * Select operations by rule; added after the allowlist, in document order.
   */
  select?: {
    /**
     * Every operation of the document.
     */
    all?: boolean;
    /**
     * Operations with any of these tags.
     */
    tags?: string[];
    /**
     * Operations whose path matches any of these globs (`*` one segment, `**` any).
     */
    paths?: string[];
    /**
     * Operations with any of these HTTP methods.
     */
    methods?: ("get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace")[];
    /**
     * Operations removed from the selection (and from the allowlist).
     */
    exclude?: {
      operationIds?: string[];
      tags?: string[];
      paths?: string[];
      methods?: ("get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace")[];
    };
  };
  pathPrefixes?: PathPrefixes;
  parameters?: ParameterSources;
  /**
   * Per-operation adjustments, keyed by operationId.
   */
  overrides?: {
    [k: string]: OperationOverride | undefined;
  };
  /**
   * Default upstream base URL, instead of the document's first server (API_BASE_URL still overrides it).
   */
  baseUrl?: string;
  /**
   * How the generated server authenticates upstream.
   */
  auth?: {
    /**
     * What the MCP caller may pass through to the upstream (its own origin only).
     */
    passthrough?: {
      /**
       * Forward the caller's Authorization header when no server-held credential sets it.
       */
      authorization?: boolean;
      /**
       * More caller headers to forward (e.g. X-Tenant).
       */
      headers?: string[];
    };
    /**
     * Where server-held credentials go: declared (operations whose security names the scheme) or all (every operation, for documents that declare security on a few operations only).
     */
    apply?: "declared" | "all";
    /**
     * How MCP callers sign in (AUTH_MODE overrides it): passthrough (the caller's Authorization goes upstream as auth.prefer says; for a person's own local client), resource (an OAuth 2.1 resource server for the authorization server AUTH_ISSUER names; the MCP token never goes upstream) or proxy (this server is the clients' authorization server in front of the API's own OAuth provider: each user signs in there and their calls carry their own provider token).
     */
    mode?: "passthrough" | "resource" | "proxy";
    /**
     * Resource and proxy mode: the OAuth scopes a signed-in caller needs for each tool, by rule, where the document's security names none for its operation (the document's own requirements win, and an alternative credential such as an API key never stands in for a scope; overrides.<id>.scopes add to either). An operation needs the scopes of every rule that matches it (read or write, its tags, its path's globs, its operationId): a rule only ever adds. Start-up warns when tools that change data need no scope beyond AUTH_SCOPES.
     */
    scopes?: {
      read?: ScopeList;
      write?: ScopeList;
      /**
       * By tag: an operation with any of these tags needs their scopes too.
       */
      tags?: {
        [k: string]: ScopeList | undefined;
      };
      /**
       * By path glob (`*` one segment, `**` any, so `/admin/**` is a prefix): an operation whose path matches needs their scopes too.
       */
      paths?: {
        [k: string]: ScopeList | undefined;
      };
      /**
       * By operationId: that operation needs these scopes too.
       */
      operations?: {
        [k: string]: ScopeList | undefined;
      };
    };
    /**
     * Proxy mode: the API's own OAuth provider, where users sign in through your registered app (else the document's oauth2 authorization-code flow; AUTH_PROVIDER_* override it).
     */
    provider?: {
      /**
       * The provider's authorization endpoint (https; http only on loopback).
       */
      authorizationUrl: string;
      /**
       * The provider's token endpoint (https; http only on loopback).
       */
      tokenUrl: string;
      /**
       * Scopes asked of the provider on every sign-in, besides those the client asks for.
       */
      scopes?: string[];
      /**
       * How your app authenticates at the token endpoint: basic (HTTP Basic, the default) or post (in the form, as GitHub takes it).
       */
      clientAuth?: "basic" | "post";
    };
    /**
     * One identity per upstream call: server (where a server-held credential applies, the caller's Authorization is not forwarded) or caller (a caller that sends an Authorization gets it forwarded, and no server-held credential goes with its calls).
     */
    prefer?: "server" | "caller";
  };
  /**
   * Tools whose every call the user confirms before it is sent: the server asks through MCP elicitation while the call waits (stdio, a session) or answers input_required in the 2026-07-28 protocol, and a decline sends nothing. true asks for every destructive tool (annotated destructiveHint: deletes, cancels, ends); an object chooses by rule, each rule only adding. A client that can be asked neither way is refused (the operator may let it run: MCP_CONFIRM=best-effort).
   */
  confirm?:
    | boolean
    | {
        /**
         * Every tool annotated destructiveHint (deletes, cancels, ends); true unless set false.
         */
        destructive?: boolean;
        /**
         * Every tool that changes data (not annotated readOnlyHint); false unless set.
         */
        writes?: boolean;
        /**
         * Every tool with any of these tags.
         */
        tags?: string[];
        /**
         * Every tool whose path matches one of these globs (`*` one segment, `**` any).
         */
        paths?: string[];
        /**
         * These operationIds.
         */
        operations?: string[];
      };
  /**
   * Limits on each tool's input and output schema.
   */
  schemas?: {
    /**
     * Largest input or output schema of one tool, in bytes of JSON (default 65536). Past it, $defs are expanded only to the deepest reference level that fits; the next level becomes placeholders that keep their type and admit any value. 0 keeps every schema whole.
     */
    maxBytes?: number;
    /**
     * Refuse request-body fields the document's schema names nowhere, at every depth (the default follows the document: a schema it closes with additionalProperties: false refuses them, an open one forwards them, since documents leave out fields their APIs take). overrides.<id>.body.closed decides for one operation.
     */
    closedBodies?: boolean;
  };
  /**
   * Fail generation when the tools/list answer grows past these sizes.
   */
  budget?: {
    /**
     * Largest tools/list payload, in bytes of JSON.
     */
    maxBytes?: number;
    /**
     * Largest tools/list payload, in estimated tokens (bytes / 4).
     */
    maxTokens?: number;
  };
  /**
   * tools: every selected operation is a tool of its own. discovery: the server lists three tools (search_operations, describe_operation, call_operation) over the selected operations, for APIs too large to list. code: search_operations and describe_operation, and run_code, which runs a short program calling the operations (see `code`). auto (the default): tools while the selection fits the tools/list budget (budget.maxBytes/maxTokens, or 100 tools and 50,000 tokens when none is set), discovery past it.
   */
  mode?: "tools" | "discovery" | "code" | "auto";
  /**
   * Discovery mode settings.
   */
  discovery?: {
    /**
     * operationIds listed as tools of their own beside the three discovery tools.
     */
    alwaysList?: string[];
  };
  /**
   * Code mode: a run_code tool that runs a model's JavaScript program (TypeScript annotations accepted) in a WebAssembly sandbox, where each selected operation is an async function api.<tool_name>(args). true, or its settings, lists it beside the tools (any mode); mode: code serves it with search and describe alone.
   */
  code?:
    | boolean
    | {
        /**
         * Whether programs may call operations that change data (not GET, HEAD or OPTIONS): false (when unset: they throw), true, or the operationIds or tool names that may.
         */
        allowWrites?: boolean | string[];
        /**
         * Wall time of one run, in milliseconds (10000 when unset).
         */
        timeoutMs?: number;
        /**
         * Memory of one run's engine, in MB (64 when unset).
         */
        memoryMb?: number;
        /**
         * api calls one run may make (50 when unset).
         */
        maxCalls?: number;
        /**
         * Bytes of JSON one run may return (1048576 when unset); logs are kept to 1,000 lines and 64 KiB.
         */
        maxOutputBytes?: number;
        /**
         * Check each program against the operations' types (TypeScript) before it runs: a misspelt operation, an unknown or wrongly typed argument, a missing one is the run's error with its line, and nothing is called. The generated package then depends on typescript (about 23 MB installed, beyond the runtime's budget: hence off unless set).
         */
        typeCheck?: boolean;
      };
  /**
   * How tool results are checked.
   */
  output?: {
    /**
     * How results are checked against the document's response schema: warn (every result reaches the client as structured content: the listed output schema shows the document's shape under a root any object matches; differences from the document are logged), strict (the document's schema is listed, and a mismatch is an error), off (listed as under warn, never checked).
     */
    validate?: "warn" | "strict" | "off";
  };
  /**
   * External $refs of a multi-file document: files in the document's folder are always followed.
   */
  externalRefs?: {
    /**
     * Also follow references to files outside the document's folder.
     */
    outsideFolder?: boolean;
    /**
     * Follow http(s) references through the guarded fetch (public addresses only); a list of host names also allows those hosts whatever they resolve to.
     */
    urls?: boolean | string[];
  };
}
/**
 * Prefixes stripped from path-parameter values, by parameter name (e.g. memo: memos/): at the top level for every operation, in an override for that operation only.
 */
export interface PathPrefixes {
  [k: string]: string | string[] | undefined;
}
/**
 * Parameters the server supplies instead of the model, by the parameter's name in the document: at the top level for every selected operation that declares it, in an override for that operation only. Such a parameter is in no tool's input schema.
 */
export interface ParameterSources {
  [k: string]:
    | {
        /**
         * Read from this environment variable when the server starts (for credentials such as a token parameter).
         */
        env?: string;
        /**
         * Always sent with this value.
         */
        value?: string | number | boolean;
        /**
         * Never sent (an optional parameter the model should not see).
         */
        hide?: true;
      }
    | undefined;
}
export interface OperationOverride {
  /**
   * Tool name instead of the derived one.
   */
  name?: string;
  /**
   * Tool title instead of the operation summary.
   */
  title?: string;
  /**
   * Tool description instead of the operation's.
   */
  description?: string;
  /**
   * In resource mode, the OAuth scopes a signed-in caller needs for this tool besides those the document's security names (for a document that names none).
   */
  scopes?: string[];
  /**
   * Reshapes the request-body object schema.
   */
  body?: {
    /**
     * Replaces the body's required list.
     */
    required?: string[];
    /**
     * Properties removed from the body.
     */
    omit?: string[];
    /**
     * Properties accepted and never sent (the API sets them itself, as a resource name a read result carries): a read result can be sent back as it is.
     */
    ignore?: string[];
    /**
     * Minimum number of body properties.
     */
    minProperties?: number;
    /**
     * true: refuse fields the document's schema names nowhere, at every depth of this body; false: forward them (open), whatever schemas.closedBodies says.
     */
    closed?: boolean;
  };
  /**
   * Tool annotation hints that replace the ones derived from the HTTP method.
   */
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  pathPrefixes?: PathPrefixes;
  parameters?: ParameterSources;
  /**
   * How this tool's results are checked.
   */
  output?: {
    /**
     * Overrides output.validate for this operation.
     */
    validate?: "warn" | "strict" | "off";
    /**
     * false: publish no output schema for this tool (its results are then not checked).
     */
    schema?: boolean;
  };
}

/**
 * The config with every default applied.
 */
export interface ResolvedConfig {
  /**
   * Editor hint; ignored by the generator.
   */
  $schema?: string;
  /**
   * OpenAPI Overlay files (1.0 or 1.1), applied in order to the document before anything reads it, relative to this config file; --overlay adds more after them. An action that matches nothing is a warning.
   */
  overlays?: string[];
  /**
   * Identity of the generated MCP server.
   */
  server: {
    /**
     * Server name reported in initialize.
     */
    name: string;
    /**
     * Server version reported in initialize.
     */
    version: string;
    /**
     * Human-readable server title.
     */
    title?: string;
    /**
     * Instructions returned to clients in initialize.
     */
    instructions?: string;
    /**
     * Packages the generated folder depends on beside the runtime, for what a deployment switches on by environment: metrics (prom-client, for METRICS_PORT or METRICS_TOKEN), traces (OpenTelemetry's SDK and OTLP exporter, for OTEL_EXPORTER_OTLP_ENDPOINT), postgres (pg, for proxy mode's AUTH_STATE_URL). Written into the generated package.json, so --check stays true and the Docker image installs them.
     */
    include?: ("metrics" | "traces" | "postgres")[];
    /**
     * The generated package's npm name, scoped or not (e.g. @acme/memos-mcp). The npm entry of server.json names it. Default: the server name followed by -mcp-server.
     */
    packageName?: string;
    /**
     * The server's name in the MCP Registry, in reverse-DNS form with one slash (io.github.acme/memos-mcp-server; the namespace must be one you can prove: your GitHub account or organisation, or a domain). Written into server.json and as mcpName into package.json, which then loses private: true so that it can be published to npm. Unset: a placeholder the README asks to replace before publishing.
     */
    registryName?: string;
    /**
     * Where a deployment of this server is reachable for everyone, as PUBLIC_URL gives it to that deployment (https://mcp.example.com): server.json then lists it as a streamable-http remote at its /mcp.
     */
    publicUrl?: string;
    /**
     * mcpb: also write manifest.json for an MCP Bundle (a desktop extension that runs the server over stdio) and an npm run bundle script that builds the .mcpb file with @anthropic-ai/mcpb (as the --mcpb flag does).
     */
    bundle?: "mcpb";
  };
  /**
   * The allowlist: operationIds that become tools (in this order). Combine with or replace by `select`.
   *
   * @minItems 1
   */
  operations?: string[];
  /**
   * Select operations by rule; added after the allowlist, in document order.
   */
  select?: {
    /**
     * Every operation of the document.
     */
    all?: boolean;
    /**
     * Operations with any of these tags.
     */
    tags?: string[];
    /**
     * Operations whose path matches any of these globs (`*` one segment, `**` any).
     */
    paths?: string[];
    /**
     * Operations with any of these HTTP methods.
     */
    methods?: ("get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace")[];
    /**
     * Operations removed from the selection (and from the allowlist).
     */
    exclude?: {
      operationIds?: string[];
      tags?: string[];
      paths?: string[];
      methods?: ("get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace")[];
    };
  };
  pathPrefixes: PathPrefixes;
  parameters: ParameterSources;
  /**
   * Per-operation adjustments, keyed by operationId.
   */
  overrides: {
    [k: string]: OperationOverride | undefined;
  };
  /**
   * Default upstream base URL, instead of the document's first server (API_BASE_URL still overrides it).
   */
  baseUrl?: string;
  /**
   * How the generated server authenticates upstream.
   */
  auth: {
    /**
     * What the MCP caller may pass through to the upstream (its own origin only).
     */
    passthrough: {
      /**
       * Forward the caller's Authorization header when no server-held credential sets it.
       */
      authorization: boolean;
      /**
       * More caller headers to forward (e.g. X-Tenant).
       */
      headers: string[];
    };
    /**
     * Where server-held credentials go: declared (operations whose security names the scheme) or all (every operation, for documents that declare security on a few operations only).
     */
    apply: "declared" | "all";
    /**
     * How MCP callers sign in (AUTH_MODE overrides it): passthrough (the caller's Authorization goes upstream as auth.prefer says; for a person's own local client), resource (an OAuth 2.1 resource server for the authorization server AUTH_ISSUER names; the MCP token never goes upstream) or proxy (this server is the clients' authorization server in front of the API's own OAuth provider: each user signs in there and their calls carry their own provider token).
     */
    mode: "passthrough" | "resource" | "proxy";
    /**
     * Resource and proxy mode: the OAuth scopes a signed-in caller needs for each tool, by rule, where the document's security names none for its operation (the document's own requirements win, and an alternative credential such as an API key never stands in for a scope; overrides.<id>.scopes add to either). An operation needs the scopes of every rule that matches it (read or write, its tags, its path's globs, its operationId): a rule only ever adds. Start-up warns when tools that change data need no scope beyond AUTH_SCOPES.
     */
    scopes?: {
      read?: ScopeList;
      write?: ScopeList;
      /**
       * By tag: an operation with any of these tags needs their scopes too.
       */
      tags?: {
        [k: string]: ScopeList | undefined;
      };
      /**
       * By path glob (`*` one segment, `**` any, so `/admin/**` is a prefix): an operation whose path matches needs their scopes too.
       */
      paths?: {
        [k: string]: ScopeList | undefined;
      };
      /**
       * By operationId: that operation needs these scopes too.
       */
      operations?: {
        [k: string]: ScopeList | undefined;
      };
    };
    /**
     * Proxy mode: the API's own OAuth provider, where users sign in through your registered app (else the document's oauth2 authorization-code flow; AUTH_PROVIDER_* override it).
     */
    provider?: {
      /**
       * The provider's authorization endpoint (https; http only on loopback).
       */
      authorizationUrl: string;
      /**
       * The provider's token endpoint (https; http only on loopback).
       */
      tokenUrl: string;
      /**
       * Scopes asked of the provider on every sign-in, besides those the client asks for.
       */
      scopes?: string[];
      /**
       * How your app authenticates at the token endpoint: basic (HTTP Basic, the default) or post (in the form, as GitHub takes it).
       */
      clientAuth?: "basic" | "post";
    };
    /**
     * One identity per upstream call: server (where a server-held credential applies, the caller's Authorization is not forwarded) or caller (a caller that sends an Authorization gets it forwarded, and no server-held credential goes with its calls).
     */
    prefer: "server" | "caller";
  };
  /**
   * Tools whose every call the user confirms before it is sent: the server asks through MCP elicitation while the call waits (stdio, a session) or answers input_required in the 2026-07-28 protocol, and a decline sends nothing. true asks for every destructive tool (annotated destructiveHint: deletes, cancels, ends); an object chooses by rule, each rule only adding. A client that can be asked neither way is refused (the operator may let it run: MCP_CONFIRM=best-effort).
   */
  confirm?:
    | boolean
    | {
        /**
         * Every tool annotated destructiveHint (deletes, cancels, ends); true unless set false.
         */
        destructive?: boolean;
        /**
         * Every tool that changes data (not annotated readOnlyHint); false unless set.
         */
        writes?: boolean;
        /**
         * Every tool with any of these tags.
         */
        tags?: string[];
        /**
         * Every tool whose path matches one of these globs (`*` one segment, `**` any).
         */
        paths?: string[];
        /**
         * These operationIds.
         */
        operations?: string[];
      };
  /**
   * Limits on each tool's input and output schema.
   */
  schemas: {
    /**
     * Largest input or output schema of one tool, in bytes of JSON (default 65536). Past it, $defs are expanded only to the deepest reference level that fits; the next level becomes placeholders that keep their type and admit any value. 0 keeps every schema whole.
     */
    maxBytes: number;
    /**
     * Refuse request-body fields the document's schema names nowhere, at every depth (the default follows the document: a schema it closes with additionalProperties: false refuses them, an open one forwards them, since documents leave out fields their APIs take). overrides.<id>.body.closed decides for one operation.
     */
    closedBodies: boolean;
  };
  /**
   * Fail generation when the tools/list answer grows past these sizes.
   */
  budget?: {
    /**
     * Largest tools/list payload, in bytes of JSON.
     */
    maxBytes?: number;
    /**
     * Largest tools/list payload, in estimated tokens (bytes / 4).
     */
    maxTokens?: number;
  };
  /**
   * tools: every selected operation is a tool of its own. discovery: the server lists three tools (search_operations, describe_operation, call_operation) over the selected operations, for APIs too large to list. code: search_operations and describe_operation, and run_code, which runs a short program calling the operations (see `code`). auto (the default): tools while the selection fits the tools/list budget (budget.maxBytes/maxTokens, or 100 tools and 50,000 tokens when none is set), discovery past it.
   */
  mode: "tools" | "discovery" | "code" | "auto";
  /**
   * Discovery mode settings.
   */
  discovery: {
    /**
     * operationIds listed as tools of their own beside the three discovery tools.
     */
    alwaysList: string[];
  };
  /**
   * Code mode: a run_code tool that runs a model's JavaScript program (TypeScript annotations accepted) in a WebAssembly sandbox, where each selected operation is an async function api.<tool_name>(args). true, or its settings, lists it beside the tools (any mode); mode: code serves it with search and describe alone.
   */
  code:
    | boolean
    | {
        /**
         * Whether programs may call operations that change data (not GET, HEAD or OPTIONS): false (when unset: they throw), true, or the operationIds or tool names that may.
         */
        allowWrites?: boolean | string[];
        /**
         * Wall time of one run, in milliseconds (10000 when unset).
         */
        timeoutMs?: number;
        /**
         * Memory of one run's engine, in MB (64 when unset).
         */
        memoryMb?: number;
        /**
         * api calls one run may make (50 when unset).
         */
        maxCalls?: number;
        /**
         * Bytes of JSON one run may return (1048576 when unset); logs are kept to 1,000 lines and 64 KiB.
         */
        maxOutputBytes?: number;
        /**
         * Check each program against the operations' types (TypeScript) before it runs: a misspelt operation, an unknown or wrongly typed argument, a missing one is the run's error with its line, and nothing is called. The generated package then depends on typescript (about 23 MB installed, beyond the runtime's budget: hence off unless set).
         */
        typeCheck?: boolean;
      };
  /**
   * How tool results are checked.
   */
  output: {
    /**
     * How results are checked against the document's response schema: warn (every result reaches the client as structured content: the listed output schema shows the document's shape under a root any object matches; differences from the document are logged), strict (the document's schema is listed, and a mismatch is an error), off (listed as under warn, never checked).
     */
    validate: "warn" | "strict" | "off";
  };
  /**
   * External $refs of a multi-file document: files in the document's folder are always followed.
   */
  externalRefs: {
    /**
     * Also follow references to files outside the document's folder.
     */
    outsideFolder: boolean;
    /**
     * Follow http(s) references through the guarded fetch (public addresses only); a list of host names also allows those hosts whatever they resolve to.
     */
    urls: boolean | string[];
  };
}
