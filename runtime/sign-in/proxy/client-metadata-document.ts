import { request } from "node:https";
import { isIP } from "node:net";
import { ExpiringCache } from "../../base/expiring-cache.js";
import { checkedLookup, isRefusedAddress } from "../../base/public-address.js";

/** Where and how Client ID Metadata Documents may be fetched. */
export interface ClientMetadataPolicy {
  /** `AUTH_CLIENT_METADATA_HOSTS`: `host:port` entries fetched even on a private or loopback address. */
  allowedHosts: ReadonlySet<string>;
  /** @default 5000 */
  timeoutMs: number;
  /** @default 5120 (the draft's suggested limit) */
  maxBytes: number;
  /** Extra certificate authorities to trust (tests' own CA); the system's otherwise. */
  ca?: string;
}

/** A client metadata document this server refuses, with why (shown on the sign-in page, never a secret). */
export class ClientMetadataRefused extends Error {
  override name = "ClientMetadataRefused";
}

/** How long a fetched document is kept. */
const CACHE_MS = 300_000;

/**
 * Fetches Client ID Metadata Documents (an https `client_id` names its own metadata) under the address policy: the
 * host's every address must be public unless the operator allows the host; no redirects; bounded in time and size;
 * kept five minutes.
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/
 */
export class ClientMetadataFetcher {
  private readonly cache = new ExpiringCache<{ document: unknown; expiresAt: number }>(1_000);
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(private readonly policy: ClientMetadataPolicy) {}

  /** The parsed JSON document at `url`, from the cache or the network. */
  async fetch(url: URL): Promise<unknown> {
    const cached = this.cache.get(url.href);
    if (cached) return cached.document;
    let pending = this.pending.get(url.href);
    if (!pending) {
      pending = this.download(url).finally(() => this.pending.delete(url.href));
      this.pending.set(url.href, pending);
    }
    const document = await pending;
    this.cache.set(url.href, { document, expiresAt: Date.now() + CACHE_MS });
    return document;
  }

  private download(url: URL): Promise<unknown> {
    const { policy } = this;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const allowed = policy.allowedHosts.has(`${host}:${Number(url.port || 443)}`);
    if (!allowed && isIP(host) !== 0 && isRefusedAddress(host)) throw privateAddress(url.hostname);
    return new Promise((resolve, reject) => {
      const req = request(url, {
        method: "GET",
        agent: false,
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(policy.timeoutMs),
        ...(allowed ? {} : { lookup: publicLookup }),
        ...(policy.ca ? { ca: policy.ca } : {}),
      });
      req.on("response", (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return reject(new ClientMetadataRefused(`the client's metadata document answered ${status} (redirects are not followed)`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            req.destroy();
            reject(new ClientMetadataRefused(`the client's metadata document is larger than ${policy.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        response.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch {
            reject(new ClientMetadataRefused("the client's metadata document is not JSON"));
          }
        });
        response.on("error", () => reject(new ClientMetadataRefused("the client's metadata document could not be read")));
      });
      req.on("error", (error) => {
        if (error instanceof ClientMetadataRefused) reject(error);
        else if (error.name === "AbortError" || error.name === "TimeoutError")
          reject(new ClientMetadataRefused(`the client's metadata document did not arrive within ${policy.timeoutMs} ms`));
        else reject(new ClientMetadataRefused(`the client's metadata document cannot be fetched (${error.message})`));
      });
      req.end();
    });
  }
}

function privateAddress(host: string): ClientMetadataRefused {
  return new ClientMetadataRefused(
    `the client's metadata document is on ${host}, a private, loopback or link-local address; the operator can allow a host with AUTH_CLIENT_METADATA_HOSTS`,
  );
}

/** A DNS lookup that fails unless every address the host resolves to is public (checked in the lookup itself). */
const publicLookup = checkedLookup((_, address) => !isRefusedAddress(address), privateAddress);
