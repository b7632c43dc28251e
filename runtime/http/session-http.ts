import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { pushTo } from "../base/lists.js";
import type { Logger } from "../base/logger.js";
import { openRequestScope } from "../base/request-scope.js";
import type { ModernHost } from "../protocol/modern-exchange.js";
import { routeMessage } from "../protocol/modern-protocol.js";
import { scoped, signedInto } from "./caller-scope.js";
import { clientGroup } from "./client-group.js";
import { guardMcpRequest, type HttpPolicy, traced } from "./http-server.js";
import { sendJson } from "./json-response.js";
import { ANSWERED, readMessage, serveModern } from "./mcp-post.js";
import { Readiness } from "./readiness.js";

/** Session limits of the stateful server. */
export interface SessionLimits {
  /** @default 100 */
  maxSessions: number;
  /** Sessions idle this long are closed. @default 1800000 */
  idleMs: number;
  /** Sessions one client (an IPv4 address, an IPv6 /64) may hold (0: no per-client cap, e.g. behind a proxy). @default 10 */
  maxPerClient?: number;
}

/** While the table is full, sessions idle this long are closed first, whatever `idleMs` says. */
const PRESSURE_IDLE_MS = 5 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** The address group that opened it (an IPv4 address, an IPv6 /64). */
  client: string;
  /** Requests after `initialize`; a session that never made one past `notifications/initialized` is unused. */
  requests: number;
}

/** Requests a session makes just by opening (`notifications/initialized`): more than this and it is in use. */
const OPENING_REQUESTS = 1;

/**
 * Stateful Streamable HTTP at `/mcp`: one SDK session per client, idle sessions reaped, their number capped. A
 * 2026-07-28 message (which has no session) is answered by `modern` when given.
 */
export class SessionHttpHandler {
  private readonly sessions = new Map<string, Session>();
  private readonly reaper: NodeJS.Timeout;

  constructor(
    private readonly createServer: () => Server,
    private readonly health: () => Record<string, unknown>,
    private readonly policy: HttpPolicy,
    private readonly limits: SessionLimits,
    private readonly log: Logger,
    private readonly modern?: ModernHost,
    /** Resource mode: answers 403 for a call the caller's token does not grant (true when it did). */
    private readonly refusedForScope?: (message: unknown, res: ServerResponse) => boolean,
  ) {
    this.reaper = setInterval(() => this.reapIdle(), Math.min(limits.idleMs, 60_000));
    this.reaper.unref();
  }

  /** The number of open sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Handles `/health` and `/mcp`. */
  readonly handle = scoped(async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      // What the server reports of itself may say it cannot serve (a status other than ok): then 503, for load balancers.
      const health = { status: "ok", ...this.health(), sessions: this.sessions.size };
      return sendJson(res, health.status === "ok" ? 200 : 503, health);
    }
    if (Readiness.asked(req)) return Readiness.answer(this.policy.readiness, res);
    const { signIn, telemetry } = this.policy;
    if (telemetry?.answersMetrics(req, res)) return;
    if (signIn?.answersSignIn(req, res)) return;
    if (path !== "/mcp") return sendJson(res, 404, { error: "not found" });
    if (telemetry) traced(telemetry, req, res);
    if (!guardMcpRequest(req, res, this.policy, this.log)) return;
    if (signIn && !(await signedInto(signIn, req, res))) return;
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = this.sessions.get(sessionId);
      // Signed in, a session is its user's alone: another user's token with its id finds no session (no hint it exists).
      const scope = openRequestScope();
      const foreign = signIn !== undefined && session !== undefined && session.client !== scope?.caller;
      if (foreign)
        this.log.warn("a session's id came with another user's token; answered as not found", { user: scope?.signedIn?.subject });
      if (!session || foreign)
        return sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      session.lastSeen = Date.now();
      session.requests++;
      // Signed in, a call is checked against the token's scopes before the session sees it; traced, it names its span.
      const checked = signIn !== undefined && this.refusedForScope !== undefined;
      if ((!checked && !scope?.trace) || req.method !== "POST") return session.transport.handleRequest(req, res);
      const message = await readMessage(req, res, this.policy.maxRequestBytes);
      if (message === ANSWERED) return;
      if (message !== undefined) scope?.trace?.describe(message);
      if (checked && message !== undefined && this.refusedForScope?.(message, res)) return;
      return session.transport.handleRequest(req, res, message);
    }
    if (req.method !== "POST") {
      return sendJson(res, 400, {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required" },
        id: null,
      });
    }
    let message: unknown;
    if (this.modern) {
      message = await readMessage(req, res, this.policy.maxRequestBytes);
      if (message === ANSWERED) return;
      if (message !== undefined) openRequestScope()?.trace?.describe(message);
      if (message !== undefined && this.refusedForScope?.(message, res)) return;
      const route = message === undefined ? undefined : routeMessage(message, req.headers);
      if (route && route.era !== "legacy") return serveModern(this.modern, route, req, res);
    }
    // Signed in, a client is its user (a team behind one address is many clients); else its address group.
    const client = openRequestScope()?.caller ?? clientGroup(req.socket.remoteAddress ?? "unknown");
    if (!this.makeRoom(client)) {
      return sendJson(res, 503, { jsonrpc: "2.0", error: { code: -32000, message: "Too many sessions; try again later" }, id: null });
    }
    await this.openSession(req, res, client, message);
  });

  /**
   * Room for one more session from `client` (an address group), so that a new client always gets in: idle sessions go
   * first (under pressure, those idle five minutes); a client at its own cap displaces one of its own sessions (unused
   * first); when the table is still full, the least recently seen session that was opened and never used goes, else the
   * least recently seen session of the client holding the most sessions. A flood from a few addresses (or one IPv6 /64)
   * only displaces itself; one from many addresses displaces the oldest of the largest holders.
   */
  private makeRoom(client: string): boolean {
    this.reapIdle();
    if (this.sessions.size >= this.limits.maxSessions) this.reapIdle(Math.min(this.limits.idleMs, PRESSURE_IDLE_MS));
    const perClient = this.limits.maxPerClient ?? 10;
    const own = [...this.sessions].filter(([, session]) => session.client === client);
    // At its own cap, a client displaces its own sessions: unused ones first, else its least recently seen.
    if (perClient > 0 && own.length >= perClient && !this.evictUnused(own)) this.evict(leastRecentlySeen(own));
    if (this.sessions.size < this.limits.maxSessions || this.evictUnused([...this.sessions])) return true;
    const largest = this.largestHolder();
    if (largest.length === 0) return false;
    this.evict(leastRecentlySeen(largest));
    return true;
  }

  /** The sessions of the client holding the most (ties: the one whose newest session is oldest). */
  private largestHolder(): [string, Session][] {
    const byClient = new Map<string, [string, Session][]>();
    for (const entry of this.sessions) pushTo(byClient, entry[1].client, entry);
    let largest: [string, Session][] = [];
    const newest = (entries: [string, Session][]) => entries.reduce((latest, [, session]) => Math.max(latest, session.lastSeen), -Infinity);
    for (const entries of byClient.values()) {
      if (entries.length > largest.length || (entries.length === largest.length && newest(entries) < newest(largest))) largest = entries;
    }
    return largest;
  }

  /** Closes the least recently seen unused session among `candidates`; false when every one is in use. */
  private evictUnused(candidates: readonly [string, Session][]): boolean {
    const oldest = leastRecentlySeen(candidates.filter(([, session]) => session.requests <= OPENING_REQUESTS));
    if (!oldest) return false;
    this.evict(oldest);
    return true;
  }

  private evict(entry: [string, Session] | undefined): void {
    if (!entry) return;
    this.log.warn("closed a session to make room", { client: entry[1].client, requests: entry[1].requests });
    void this.closeSession(entry[0]);
  }

  /** Closes every session and stops the reaper. */
  async close(): Promise<void> {
    clearInterval(this.reaper);
    await Promise.all([...this.sessions.keys()].map((id) => this.closeSession(id)));
  }

  /** Opens a session for an `initialize` request (`parsedBody` when its body was already read). */
  private async openSession(req: IncomingMessage, res: ServerResponse, client: string, parsedBody?: unknown): Promise<void> {
    const server = this.createServer();
    let opened: string | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // SSE responses: in JSON-response mode the SDK's stateful transport keeps one entry per request for the
      // session's lifetime (it grew by 3,000 entries over 3,000 calls); the SSE path releases them.
      enableJsonResponse: false,
      ...(this.policy.maxRequestBytes ? { maxRequestBodySize: this.policy.maxRequestBytes } : {}),
      onsessioninitialized: (id) => {
        opened = id;
        this.sessions.set(id, { transport, server, lastSeen: Date.now(), client, requests: 0 });
      },
      onsessionclosed: (id) => {
        void this.closeSession(id);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
    // A first request that was not a valid initialize leaves no session behind.
    if (opened === undefined) {
      await transport.close();
      await server.close();
    }
  }

  private async closeSession(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  /** Closes sessions idle past the limit (`idleMs`, or a shorter one under pressure). */
  private reapIdle(idleMs = this.limits.idleMs): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.lastSeen > idleMs) {
        this.sessions.delete(id);
        void session.transport.close().catch(() => {});
        void session.server.close().catch(() => {});
      }
    }
  }
}

function leastRecentlySeen(entries: readonly [string, Session][]): [string, Session] | undefined {
  let oldest: [string, Session] | undefined;
  for (const entry of entries) if (!oldest || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
  return oldest;
}
