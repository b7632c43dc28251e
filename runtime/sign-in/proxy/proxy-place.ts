import { issuerName } from "../token-verifier.js";

/** Where the OAuth proxy stands: its issuer (this server's public origin), the MCP resource, and its callback. */
export interface ProxyPlace {
  issuer: URL;
  /** The issuer as metadata and `iss` write it. */
  issuerName: string;
  resource: URL;
  /** Where the provider sends the user back: the callback URL the operator registers with the provider. */
  callback: URL;
  /** The MCP server's name, shown on the consent page. */
  serverName: string;
}

/** The proxy's place for an MCP server reached at `resource` (its issuer is that URL's origin). */
export function proxyPlace(resource: URL, serverName: string): ProxyPlace {
  const issuer = new URL(resource.origin);
  return { issuer, issuerName: issuerName(issuer), resource, callback: new URL("/oauth/callback", issuer), serverName };
}
