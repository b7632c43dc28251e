import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
} from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import type { ServerIdentity } from "../tools/tool-runtime-contract.js";
import type { ModernHost } from "./modern-exchange.js";

/** A host whose connection can be closed. */
export interface ClosableModernHost extends ModernHost {
  close(): Promise<void>;
}

/**
 * Offers an SDK server's tools to the 2026-07-28 exchange: one in-process connection, opened with a 2025-era
 * `initialize` on first use, carries every stateless request to the server's own handlers. For servers whose state is
 * shared by all clients (the search server's catalogue), not kept per session.
 */
export function sdkModernHost(createServer: () => Server, identity: ServerIdentity): ClosableModernHost {
  let channel: Promise<Channel> | undefined;
  const open = () => {
    channel ??= Channel.open(createServer());
    return channel;
  };
  return {
    identity,
    listTools: async () => {
      const result = await (await open()).request("tools/list", {});
      return Array.isArray(result.tools) ? result.tools : [];
    },
    callTool: async (name, args) => (await open()).request("tools/call", { name, arguments: args }),
    close: async () => {
      if (channel) await (await channel).close();
    },
  };
}

/** A JSON-RPC error raised by the server, with its code and data. */
function rpcError(error: { code: number; message: string; data?: unknown }): Error {
  return Object.assign(new Error(error.message), { code: error.code, data: error.data });
}

/** Requests over an in-memory transport to one SDK server, matched to their responses by id. */
class Channel {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly server: Server,
    private readonly transport: InMemoryTransport,
  ) {
    transport.onmessage = (message) => this.settle(message);
  }

  static async open(server: Server): Promise<Channel> {
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const channel = new Channel(server, client);
    await server.connect(serverSide);
    await client.start();
    await channel.request("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "oapi-mcp-gen-2026-bridge", version: "1" },
    });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return channel;
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.send({ jsonrpc: "2.0", id, method, params }).catch((error: unknown) => {
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  private settle(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = Number(message.id);
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (isJSONRPCErrorResponse(message)) waiter.reject(rpcError(message.error));
    else waiter.resolve(isRecord(message.result) ? message.result : {});
  }

  async close(): Promise<void> {
    for (const waiter of this.pending.values()) waiter.reject(new Error("the server closed"));
    this.pending.clear();
    await this.transport.close();
    await this.server.close();
  }
}
