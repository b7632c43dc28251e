import { createHash } from "node:crypto";
import { isRecord } from "../../base/own-property.js";
import { isLoopbackAddress } from "../../http/origin.js";
import { ClientMetadataFetcher, type ClientMetadataPolicy, ClientMetadataRefused } from "./client-metadata-document.js";
import { type SealingKeys, SealRefused } from "./sealed.js";

/** An MCP client as the proxy knows it: registered with it (RFC 7591) or named by its metadata document's URL. */
export interface ClientRecord {
  id: string;
  name?: string;
  redirectUris: readonly string[];
  source: "registered" | "metadata document";
}

/** A registration or a client this server refuses, as RFC 7591 / 6749 name the error. */
export class ClientRefused extends Error {
  override name = "ClientRefused";
  constructor(
    readonly error: "invalid_client_metadata" | "invalid_redirect_uri" | "invalid_client",
    message: string,
  ) {
    super(message);
  }
}

/** Registered clients' ids are sealed records, kept valid this long (a client registers again once refused). */
const REGISTRATION_SECONDS = 180 * 24 * 3600;

/** Schemes a redirect URI may never use: they run code, read files or name no endpoint. */
const REFUSED_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:", "ws:", "wss:", "ftp:"]);

/**
 * The proxy's clients, with no store: a dynamically registered client's id is its own record, sealed; an https
 * client id is a Client ID Metadata Document, fetched under the address policy.
 */
export class ClientDirectory {
  private readonly documents: ClientMetadataFetcher;

  constructor(
    private readonly keys: SealingKeys,
    policy: ClientMetadataPolicy,
  ) {
    this.documents = new ClientMetadataFetcher(policy);
  }

  /** Dynamic Client Registration: a public client (PKCE, no secret) whose id seals its redirect URIs and name. */
  async register(body: unknown): Promise<Record<string, unknown>> {
    if (!isRecord(body)) throw new ClientRefused("invalid_client_metadata", "the registration must be a JSON object");
    const redirectUris = redirectUrisOf(body.redirect_uris);
    const name = clientName(body.client_name);
    const grants = Array.isArray(body.grant_types) ? body.grant_types : ["authorization_code"];
    if (grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token"))
      throw new ClientRefused("invalid_client_metadata", "only the authorization_code and refresh_token grants are offered");
    const issuedAt = Math.floor(Date.now() / 1000);
    const id = await this.keys.seal(
      "client",
      { redirect_uris: redirectUris, ...(name ? { client_name: name } : {}) },
      REGISTRATION_SECONDS,
    );
    return {
      client_id: id,
      client_id_issued_at: issuedAt,
      redirect_uris: redirectUris,
      ...(name ? { client_name: name } : {}),
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  /** The client a `client_id` names; ClientRefused when it names none this server takes. */
  async find(clientId: string): Promise<ClientRecord> {
    if (clientId.startsWith("https://")) return this.fromDocument(clientId);
    try {
      const claims = await this.keys.open("client", clientId);
      return {
        id: clientId,
        ...(typeof claims.client_name === "string" ? { name: claims.client_name } : {}),
        redirectUris: Array.isArray(claims.redirect_uris) ? claims.redirect_uris.map(String) : [],
        source: "registered",
      };
    } catch (error) {
      if (error instanceof SealRefused) throw new ClientRefused("invalid_client", "this server has not registered that client");
      throw error;
    }
  }

  private async fromDocument(clientId: string): Promise<ClientRecord> {
    const url = URL.canParse(clientId) ? new URL(clientId) : undefined;
    if (!url || url.pathname === "/" || url.hash || url.username || url.password)
      throw new ClientRefused("invalid_client", "a client id URL must be https with a path, and no fragment or credentials");
    let document: unknown;
    try {
      document = await this.documents.fetch(url);
    } catch (error) {
      if (error instanceof ClientMetadataRefused) throw new ClientRefused("invalid_client", error.message);
      throw error;
    }
    if (!isRecord(document) || document.client_id !== clientId)
      throw new ClientRefused("invalid_client", "the client's metadata document does not name this client id");
    const method = document.token_endpoint_auth_method;
    if (method !== undefined && method !== "none")
      throw new ClientRefused("invalid_client", "a client metadata document client must be public (token_endpoint_auth_method none)");
    try {
      const name = clientName(document.client_name);
      return { id: clientId, ...(name ? { name } : {}), redirectUris: redirectUrisOf(document.redirect_uris), source: "metadata document" };
    } catch (error) {
      if (error instanceof ClientRefused) throw new ClientRefused("invalid_client", error.message);
      throw error;
    }
  }
}

/** A client's redirect URIs: 1–10 absolute URIs, no fragment, https or http on loopback or an app's own scheme. */
function redirectUrisOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 10)
    throw new ClientRefused("invalid_redirect_uri", "redirect_uris must list one to ten URIs");
  return value.map((uri) => {
    const url = typeof uri === "string" && uri.length <= 2000 && URL.canParse(uri) ? new URL(uri) : undefined;
    if (!url || uri.includes("#") || (url.href !== uri && url.href !== `${uri}/`))
      throw new ClientRefused("invalid_redirect_uri", `not an absolute redirect URI without a fragment: ${String(uri).slice(0, 200)}`);
    if (REFUSED_SCHEMES.has(url.protocol) || (url.protocol === "http:" && !isLoopbackAddress(url.hostname.replace(/^\[|\]$/g, ""))))
      throw new ClientRefused("invalid_redirect_uri", `redirect URIs must be https, http on loopback, or an app's own scheme: ${uri}`);
    return uri;
  });
}

/** A client's display name: text of at most 100 characters without control characters. */
function clientName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.length > 100 || /[\u0000-\u001f\u007f]/.test(value))
    throw new ClientRefused("invalid_client_metadata", "client_name must be text of at most 100 characters");
  return value.trim() || undefined;
}

/** A client as logs name it: a metadata document's URL, or a registered client's short digest (its id is a long sealed record). */
export function clientLabel(clientId: string): string {
  return clientId.startsWith("https://")
    ? clientId
    : `registered-${createHash("sha256").update(clientId).digest("base64url").slice(0, 10)}`;
}
