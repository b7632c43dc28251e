import { clientBasic } from "../base/client-basic.js";
import { EnvironmentError } from "../base/environment-error.js";
import { setOwn } from "../base/own-property.js";
import { requestScope, type SignedInCaller } from "../base/request-scope.js";
import { headerRefusal } from "./header-policy.js";

/** A security scheme of the generated server and the environment variables that hold its credentials. */
export interface SecuritySchemeDefinition {
  readonly type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** apiKey: where the key goes and under which name. */
  readonly in?: "header" | "query" | "cookie";
  readonly name?: string;
  /** http: `bearer`, `basic`, … */
  readonly scheme?: string;
  /** oauth2: the client-credentials token URL, if the scheme has that flow. */
  readonly tokenUrl?: string;
  /** Role (`apiKey`, `token`, `username`, `password`, `clientId`, `clientSecret`, `tokenUrl`) → variable name. */
  readonly env: Readonly<Record<string, string>>;
  readonly description?: string;
}

/** Security schemes plus what the caller may pass through. */
export interface AuthDefinition {
  readonly schemes: Readonly<Record<string, SecuritySchemeDefinition>>;
  /** `all`: a configured server-held credential goes with every operation, not only where the document declares it. */
  readonly apply?: "declared" | "all";
  /**
   * One identity per call: where a server-held credential applies, the caller's Authorization is not forwarded
   * (`server`, the default); `caller`: a call whose caller sent an Authorization carries it and no server-held credential.
   */
  readonly prefer?: "server" | "caller";
  /** How MCP callers sign in unless `AUTH_MODE` says otherwise: `passthrough` (the default), `resource` or `proxy`. */
  readonly mode?: "passthrough" | "resource" | "proxy";
  readonly passthrough: { readonly authorization: boolean; readonly headers: readonly string[] };
  /** Proxy mode: the API's own OAuth provider (the config's `auth.provider`, else the document's authorization-code flow). */
  readonly provider?: SignInProvider;
  /**
   * The document's schemes no selected operation declares (under `apply: declared`), by the variables they would read:
   * set, such a variable is never sent, and start-up says so.
   */
  readonly undeclared?: Readonly<Record<string, readonly string[]>>;
}

/** Where proxy mode sends users to sign in, and how the operator's app talks to the provider. */
export interface SignInProvider {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  /** Scopes asked on every sign-in, besides the client's. */
  readonly scopes?: readonly string[];
  readonly clientAuth?: "basic" | "post";
}

/** A tool's security requirements (alternatives; each maps scheme names to scopes). */
export type SecurityRequirements = readonly Readonly<Record<string, readonly string[]>>[];

/** What one call sends upstream for authentication. */
export interface AppliedCredentials {
  headers: Record<string, string>;
  query: [string, string][];
}

/** The caller-side inputs: its Authorization header and the allow-listed headers it sent. */
export interface CallerCredentials {
  authorization?: string;
  headers?: Readonly<Record<string, string>>;
}

/** The Authorization a signed-in caller's calls send upstream (a server-held or exchanged one), never its MCP token. */
export type SignedInAuthorization = (caller: SignedInCaller) => Promise<string | undefined>;

/** An OAuth2 or configuration failure, shown to the caller without secrets. */
export class CredentialError extends Error {
  override name = "CredentialError";
}

/** A scheme's configured values by role (`apiKey`, `token`, `username`, …). */
type Values = Record<string, string>;

/** A scheme's credential in the form a call sends it; only complete ones exist. */
type Credential =
  | { kind: "apiKey"; scheme: SecuritySchemeDefinition; key: string }
  | { kind: "basic"; username: string; password: string }
  | { kind: "clientCredentials"; tokenUrl: string; clientId: string; clientSecret: string }
  | { kind: "token"; token: string };

/** An OAuth2 client-credentials grant: the token is fetched, not configured. */
type ClientCredentials = Extract<Credential, { kind: "clientCredentials" }>;

/**
 * Server-held credentials read once from the environment, applied per call: the first requirement alternative whose
 * credentials are all configured wins; otherwise the caller's own Authorization (when passthrough allows) is used.
 */
export class CredentialStore {
  private readonly values = new Map<string, Values>();
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly auth: AuthDefinition,
    env: NodeJS.ProcessEnv,
    private readonly options: {
      timeoutMs: number;
      fetch?: typeof fetch;
      /** False when the upstream URL came from the document alone: the caller's credentials then stay home. @default true */
      forwardCaller?: boolean;
      /** Resource mode: what goes upstream in place of a signed-in caller's Authorization (its MCP token never does). */
      signedIn?: SignedInAuthorization;
    },
  ) {
    const problems: string[] = [];
    for (const [name, scheme] of Object.entries(auth.schemes)) {
      const values: Values = {};
      for (const [role, variable] of Object.entries(scheme.env)) {
        const value = env[variable]?.trim();
        if (value) values[role] = value;
      }
      if (values.username !== undefined && values.password === undefined)
        problems.push(`${scheme.env.password}: missing (${scheme.env.username} is set)`);
      if (values.clientId !== undefined && values.clientSecret === undefined)
        problems.push(`${scheme.env.clientSecret}: missing (${scheme.env.clientId} is set)`);
      if (values.clientId !== undefined && !values.tokenUrl && !scheme.tokenUrl)
        problems.push(`${scheme.env.tokenUrl}: required for ${name} (the document gives no token URL)`);
      if (Object.keys(values).length > 0) this.values.set(name, values);
    }
    if (problems.length > 0) throw new EnvironmentError(problems.join("\n"));
  }

  /** Names of the schemes that have credentials configured. */
  configured(): string[] {
    return [...this.values.keys()].sort();
  }

  /**
   * The credentials for one call, one identity only: the server-held credential that applies, or (where none does, or
   * under `prefer: caller` when the caller sent one) the caller's Authorization; never both. Never shared with another
   * call except for server-held values.
   */
  async apply(requirements: SecurityRequirements | undefined, caller: CallerCredentials): Promise<AppliedCredentials> {
    const applied: AppliedCredentials = { headers: {}, query: [] };
    const forwarding = this.options.forwardCaller !== false;
    const signedIn = requestScope().signedIn;
    // Proxy mode: the user's own provider token is the call's identity, whatever the passthrough policy says.
    const own = signedIn?.upstreamAuthorization;
    const callers =
      own ??
      (!(forwarding && this.auth.passthrough.authorization)
        ? undefined
        : signedIn
          ? await this.upstreamFor(signedIn)
          : caller.authorization);
    const chosen = callers !== undefined && (own !== undefined || this.auth.prefer === "caller") ? undefined : this.choose(requirements);
    if (chosen) for (const [name, scopes] of Object.entries(chosen)) await this.applyScheme(name, scopes, applied);
    if (!forwarding) return applied;
    if (chosen === undefined && callers !== undefined) applied.headers.authorization = callers;
    for (const [header, value] of Object.entries(caller.headers ?? {})) {
      // A caller's own key header never rides beside the server-held credential.
      if (chosen !== undefined && this.keyHeaders.has(header.toLowerCase())) continue;
      if (!Object.hasOwn(applied.headers, header)) setOwn(applied.headers, header, value);
    }
    return applied;
  }

  /** A signed-in caller's upstream Authorization: what the operator set for it, or none; its MCP token never. */
  private async upstreamFor(caller: SignedInCaller): Promise<string | undefined> {
    if (!this.options.signedIn) return undefined;
    try {
      return await this.options.signedIn(caller);
    } catch (error) {
      throw new CredentialError(
        `no upstream credential for the signed-in caller (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /** Whether a server-held credential goes with an operation of these requirements (so the caller's does not). */
  reaches(requirements: SecurityRequirements | undefined): boolean {
    return this.choose(requirements) !== undefined;
  }

  /** The header names the API's key schemes use: credentials, whoever sends them. */
  private get keyHeaders(): ReadonlySet<string> {
    this.keyHeaderNames ??= new Set(
      Object.values(this.auth.schemes).flatMap((scheme) =>
        scheme.type === "apiKey" && scheme.in === "header" && scheme.name ? [scheme.name.toLowerCase()] : [],
      ),
    );
    return this.keyHeaderNames;
  }
  private keyHeaderNames: ReadonlySet<string> | undefined;

  /**
   * The first declared alternative whose credentials are all configured; under `apply: all`, else the first scheme
   * with credentials, whatever the operation declares.
   */
  private choose(requirements: SecurityRequirements | undefined): Readonly<Record<string, readonly string[]>> | undefined {
    const declared = requirements?.find(
      (alternative) => Object.keys(alternative).length > 0 && Object.keys(alternative).every((name) => this.ready(name)),
    );
    if (declared || this.auth.apply !== "all") return declared;
    const name = Object.keys(this.auth.schemes).find((scheme) => this.ready(scheme));
    return name === undefined ? undefined : { [name]: [] };
  }

  /** True when the alternative chosen for these requirements fetches OAuth2 tokens (so a 401 may mean an expired one). */
  usesTokenEndpoint(requirements: SecurityRequirements | undefined): boolean {
    const chosen = this.choose(requirements);
    return Object.keys(chosen ?? {}).some((name) => this.credential(name)?.kind === "clientCredentials");
  }

  /** Forgets a cached OAuth2 token (after the upstream rejected it). */
  invalidate(requirements: SecurityRequirements | undefined): void {
    for (const alternative of requirements ?? [])
      for (const name of Object.keys(alternative))
        for (const key of this.tokens.keys()) if (key.startsWith(`${name}\u0000`)) this.tokens.delete(key);
  }

  private ready(name: string): boolean {
    return this.credential(name) !== undefined;
  }

  /** The scheme's credential when everything it needs is configured. */
  private credential(name: string): Credential | undefined {
    const scheme = this.auth.schemes[name];
    const values = this.values.get(name);
    if (!scheme || !values) return undefined;
    const { apiKey, token, username, password, clientId, clientSecret } = values;
    if (scheme.type === "apiKey") return apiKey === undefined ? undefined : { kind: "apiKey", scheme, key: apiKey };
    if (scheme.type === "http" && scheme.scheme === "basic")
      return username === undefined || password === undefined ? undefined : { kind: "basic", username, password };
    if (scheme.type === "oauth2" && token === undefined) {
      const tokenUrl = values.tokenUrl ?? scheme.tokenUrl;
      if (clientId === undefined || clientSecret === undefined || tokenUrl === undefined) return undefined;
      return { kind: "clientCredentials", tokenUrl, clientId, clientSecret };
    }
    return token === undefined ? undefined : { kind: "token", token };
  }

  private async applyScheme(name: string, scopes: readonly string[], applied: AppliedCredentials): Promise<void> {
    const credential = this.credential(name);
    switch (credential?.kind) {
      case "apiKey": {
        const { scheme, key } = credential;
        const keyName = scheme.name ?? "X-API-Key";
        if (scheme.in === "query") applied.query.push([keyName, key]);
        else if (scheme.in === "cookie") appendCookie(applied, `${encodeURIComponent(keyName)}=${encodeURIComponent(key)}`);
        else {
          // A document's header name that is no header name (a line break in it) is the document's fault: say so.
          const refusal = headerRefusal(keyName);
          if (refusal !== undefined && refusal !== "is ignored as a parameter (OpenAPI)")
            throw new CredentialError(`the API key header ${JSON.stringify(keyName.slice(0, 60))} of scheme ${name} ${refusal}`);
          if (/[\r\n\0]/.test(key)) throw new CredentialError(`the API key of scheme ${name} has a line break`);
          setOwn(applied.headers, keyName.toLowerCase(), key);
        }
        return;
      }
      case "basic":
        applied.headers.authorization = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString("base64")}`;
        return;
      case "clientCredentials":
        applied.headers.authorization = `Bearer ${await this.clientCredentialsToken(name, credential, scopes)}`;
        return;
      case "token":
        applied.headers.authorization = `Bearer ${credential.token}`;
        return;
    }
  }

  /** An OAuth2 client-credentials token, cached until shortly before it expires; concurrent callers share one fetch. */
  private clientCredentialsToken(name: string, grant: ClientCredentials, scopes: readonly string[]): Promise<string> {
    const key = `${name}\u0000${[...scopes].sort().join(" ")}`;
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return Promise.resolve(cached.token);
    const running = this.pending.get(key);
    if (running) return running;
    const request = this.fetchToken(grant, scopes)
      .then(({ token, expiresIn }) => {
        this.tokens.set(key, { token, expiresAt: Date.now() + Math.max(0, expiresIn - 60) * 1000 });
        return token;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, request);
    return request;
  }

  private async fetchToken(grant: ClientCredentials, scopes: readonly string[]): Promise<{ token: string; expiresIn: number }> {
    const { tokenUrl } = grant;
    const body = new URLSearchParams({ grant_type: "client_credentials" });
    if (scopes.length > 0) body.set("scope", scopes.join(" "));
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(tokenUrl, {
        method: "POST",
        headers: { authorization: clientBasic(grant.clientId, grant.clientSecret), accept: "application/json" },
        body,
        redirect: "error",
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new CredentialError(
        `could not reach the OAuth2 token endpoint ${new URL(tokenUrl).origin} (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const text = await response.text();
    let parsed: { access_token?: unknown; expires_in?: unknown } = {};
    try {
      parsed = JSON.parse(text);
    } catch {}
    if (!response.ok || typeof parsed.access_token !== "string") {
      throw new CredentialError(
        `the OAuth2 token endpoint ${new URL(tokenUrl).origin} answered ${response.status} without an access token`,
      );
    }
    return { token: parsed.access_token, expiresIn: typeof parsed.expires_in === "number" ? parsed.expires_in : 3600 };
  }
}

function appendCookie(applied: AppliedCredentials, cookie: string): void {
  applied.headers.cookie = applied.headers.cookie ? `${applied.headers.cookie}; ${cookie}` : cookie;
}
