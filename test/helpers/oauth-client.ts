import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { authorize } from "./authorization-server.js";

/** The SDK client's OAuth provider for a test: it keeps what the SDK hands it and signs in by following the redirects. */
export class TestOAuthProvider implements OAuthClientProvider {
  /**
   * A client registered beforehand, or undefined to register dynamically (or, given `clientMetadataUrl`, to name itself
   * by its Client ID Metadata Document where the server takes them).
   */
  constructor(
    private client?: OAuthClientInformationMixed,
    private readonly options: { clientMetadataUrl?: string; redirectUrl?: string } = {},
  ) {
    this.redirectUrl = options.redirectUrl ?? "http://127.0.0.1:9/callback";
  }
  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }
  private saved: OAuthTokens | undefined;
  private verifier = "";
  /** The authorization code of the last sign-in, for `finishAuth`; and its whole callback query (`code`, `state`, `iss`). */
  code: string | undefined;
  callback = new URLSearchParams();
  /** How many times the SDK sent the user to sign in, and registered this client. */
  signIns = 0;
  registrations = 0;
  readonly redirectUrl: string;
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "sign-in test",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      // What this client may ever ask for; each sign-in asks for what the server's challenge names.
      scope: "memos:read memos:write",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    if (information.client_id !== this.client?.client_id) this.registrations++;
    this.client = information;
  }
  /** What the SDK drops when the server refuses it: the client on `invalid_client` (then it registers again), tokens on `invalid_grant`. */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.signIns++;
    const back = await authorize(url, this.redirectUrl);
    if (!back.get("code")) throw new Error(`sign-in failed: ${back.toString()}`);
    this.code = back.get("code") ?? undefined;
    this.callback = back;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Connects the SDK client with nothing but the server's URL: on 401 it signs in, then connects again. */
export async function signedInClient(
  url: URL,
  provider: TestOAuthProvider,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const client = new Client({ name: "sign-in-test", version: "1" });
    try {
      await client.connect(transport);
      return { client, transport };
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !provider.code) throw error;
      await transport.finishAuth(provider.code);
    }
  }
  throw new Error("could not sign in");
}
