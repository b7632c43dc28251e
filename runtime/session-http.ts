import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { guardMcpRequest, type HttpPolicy } from "./http-server.js";
import { sendJson } from "./json-response.js";
import type { Logger } from "./logger.js";
import { ANSWERED, readMessage, serveModern } from "./mcp-post.js";
import type { ModernHost } from "./modern-exchange.js";
import { routeMessage } from "./modern-protocol.js";

/** Session limits of the stateful server. */
export interface SessionLimits {
  /** @default 100 */
  maxSessions: number;
  /** Sessions idle this long are closed. @default 1800000 */
  idleMs: number;
  /** Sessions one client address may hold (0: no per-address cap, e.g. behind a proxy). @default 10 */
  maxPerClient?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** The remote address that opened it. */
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
  ) {
    this.reaper = setInterval(() => this.reapIdle(), Math.min(limits.idleMs, 60_000));
    this.reaper.unref();
  }

  /** The number of open sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Handles `/health` and `/mcp`. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      return sendJson(res, 200, { status: "ok", ...this.health(), sessions: this.sessions.size });
    }
    if (path !== "/mcp") return sendJson(res, 404, { error: "not found" });
    if (!guardMcpRequest(req, res, this.policy, this.log)) return;
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = this.sessions.get(sessionId);
      if (!session) return sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      session.lastSeen = Date.now();
      session.requests++;
      return session.transport.handleRequest(req, res);
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
      const route = message === undefined ? undefined : routeMessage(message, req.headers);
      if (route && route.era !== "legacy") return serveModern(this.modern, route, req, res);
    }
    const client = req.socket.remoteAddress ?? "unknown";
    if (!this.makeRoom(client)) {
      return sendJson(res, 503, { jsonrpc: "2.0", error: { code: -32000, message: "Too many sessions; try again later" }, id: null });
    }
    await this.openSession(req, res, client, message);
  };

  /**
   * Room for one more session from `client`: idle sessions go first; a client at its own cap displaces one of its
   * own sessions (unused first); when the table is full, the least recently seen session that was opened and never
   * used goes (a flood of `initialize` requests only displaces itself). Another client's session in use is never
   * evicted. False when there is no room.
   */
  private makeRoom(client: string): boolean {
    this.reapIdle();
    const perClient = this.limits.maxPerClient ?? 10;
    const own = [...this.sessions].filter(([, session]) => session.client === client);
    // At its own cap, a client displaces its own sessions: unused ones first, else its least recently seen.
    if (perClient > 0 && own.length >= perClient && !this.evictUnused(own)) this.evict(leastRecentlySeen(own));
    if (this.sessions.size >= this.limits.maxSessions && !this.evictUnused([...this.sessions])) return false;
    return true;
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

  /** Closes sessions idle past the limit (active sessions are never evicted to make room). */
  private reapIdle(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.lastSeen > this.limits.idleMs) {
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
