import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./json-response.js";

/** One thing a replica needs to serve (the authorization server's keys, the shared state, the upstream): it throws when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** How long one check may take, and how long an answer is reused (a load balancer asks every few seconds). */
const CHECK_MS = 3_000;
const REUSE_MS = 2_000;

/**
 * `GET /ready` (readiness, beside `/health`, which is liveness): 200 when every check passes, else 503 naming what
 * fails; each check within 3 s, all at once, the answer reused for 2 s so probes cost the dependencies nothing much.
 */
export class Readiness {
  private last: { at: number; status: number; body: Record<string, unknown> } | undefined;
  private pending: Promise<{ status: number; body: Record<string, unknown> }> | undefined;

  constructor(private readonly checks: readonly ReadinessCheck[]) {}

  /** Whether a request is `GET` or `HEAD /ready`. */
  static asked(req: IncomingMessage): boolean {
    return (req.url ?? "/").split("?")[0] === "/ready" && (req.method === "GET" || req.method === "HEAD");
  }

  /** Answers `/ready` with `readiness`'s checks; a server that names none is ready once it answers at all. */
  static answer(readiness: Readiness | undefined, res: ServerResponse): Promise<void> | void {
    return readiness ? readiness.answer(res) : sendJson(res, 200, { status: "ready", checks: {} });
  }

  async answer(res: ServerResponse): Promise<void> {
    const now = Date.now();
    if (!this.last || now - this.last.at > REUSE_MS) {
      this.pending ??= this.run().finally(() => {
        this.pending = undefined;
      });
      this.last = { at: Date.now(), ...(await this.pending) };
    }
    sendJson(res, this.last.status, this.last.body);
  }

  private async run(): Promise<{ status: number; body: Record<string, unknown> }> {
    const results = await Promise.all(
      this.checks.map(async ({ name, check }) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_MS} ms`)), CHECK_MS);
        });
        try {
          await Promise.race([check(), late]);
          return [name, "ok"] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : String(error)] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const ready = results.every(([, outcome]) => outcome === "ok");
    return { status: ready ? 200 : 503, body: { status: ready ? "ready" : "not ready", checks: Object.fromEntries(results) } };
  }
}
