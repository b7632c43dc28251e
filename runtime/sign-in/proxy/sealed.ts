import { createHash, hkdfSync } from "node:crypto";
import { EncryptJWT, type JWTPayload, jwtDecrypt } from "jose";

/** What the proxy seals: each kind opens only as itself (a client id is never taken for an access token). */
export type SealedKind = "client" | "consent" | "upstream-state" | "code" | "access" | "refresh";

/** A sealed value that cannot be opened: tampered with, sealed with a key this server does not hold, expired, or of another kind. */
export class SealRefused extends Error {
  override name = "SealRefused";
}

/** One 256-bit key and its id (the first bytes of its digest, so the id tells nothing of the key). */
interface SealingKey {
  id: string;
  bytes: Uint8Array;
}

/**
 * Seals what the OAuth proxy hands out (client ids, codes, tokens) as JWE (`dir`, A256GCM) with the key from the
 * environment, and opens them with it or the previous key while keys rotate. Each key is first bound to the MCP
 * resource it serves (HKDF), so replicas behind one URL given the same key share every sealed value, and another server
 * given that key by mistake opens none of them: not its clients, codes or refresh tokens, which carry no audience.
 */
export class SealingKeys {
  private readonly current: SealingKey;
  private readonly accepted: ReadonlyMap<string, SealingKey>;

  constructor(resource: URL, current: Uint8Array, previous?: Uint8Array) {
    this.current = keyOf(current, resource);
    const keys = [this.current, ...(previous ? [keyOf(previous, resource)] : [])];
    this.accepted = new Map(keys.map((key) => [key.id, key]));
  }

  /** `claims` sealed as `kind` for `lifetimeSeconds`, with the current key. */
  async seal(kind: SealedKind, claims: JWTPayload, lifetimeSeconds: number): Promise<string> {
    return new EncryptJWT({ ...claims, kind })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid: this.current.id })
      .setIssuedAt()
      .setExpirationTime(`${Math.max(1, Math.floor(lifetimeSeconds))}s`)
      .encrypt(this.current.bytes);
  }

  /** The claims of a sealed value as `open` gives them, or undefined where `open` refuses it. */
  async tryOpen(kind: SealedKind, sealed: string): Promise<JWTPayload | undefined> {
    return this.open(kind, sealed).catch((error: unknown) => {
      if (error instanceof SealRefused) return undefined;
      throw error;
    });
  }

  /** The claims of a value sealed as `kind` by a key this server holds, unexpired; SealRefused otherwise. */
  async open(kind: SealedKind, sealed: string): Promise<JWTPayload> {
    if (sealed.length > 32_768 || sealed.split(".").length !== 5) throw new SealRefused(`the ${kind} was not issued by this server`);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtDecrypt(
        sealed,
        (header) => {
          const key = typeof header.kid === "string" ? this.accepted.get(header.kid) : undefined;
          if (!key) throw new SealRefused("sealed with a key this server does not hold");
          return key.bytes;
        },
        { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"], clockTolerance: 0 },
      ));
    } catch (error) {
      if (error instanceof SealRefused) throw error;
      const expired = error instanceof Error && "code" in error && error.code === "ERR_JWT_EXPIRED";
      throw new SealRefused(expired ? `the ${kind} has expired` : `the ${kind} was not issued by this server`);
    }
    if (payload.kind !== kind) throw new SealRefused(`the ${kind} was not issued by this server`);
    return payload;
  }
}

/** The key the environment's key becomes for one resource, and its id. */
function keyOf(given: Uint8Array, resource: URL): SealingKey {
  // HKDF's info is at most 1,024 bytes: the resource goes in as its digest, whatever the length of PUBLIC_URL.
  const info = `oapi-mcp-gen proxy seal ${createHash("sha256").update(resource.href).digest("hex")}`;
  const bytes = new Uint8Array(hkdfSync("sha256", given, new Uint8Array(0), info, 32));
  return { id: createHash("sha256").update(bytes).digest("base64url").slice(0, 12), bytes };
}

/** A 256-bit key as the environment gives it: base64 or base64url (44 or 43 characters), or 64 hex digits. */
export function readSealingKey(text: string): Uint8Array | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, "hex"));
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? Uint8Array.from(bytes) : undefined;
}
