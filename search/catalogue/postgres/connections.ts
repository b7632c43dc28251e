import { openPostgresPool, type PoolSettings, withConnection as withPostgresConnection } from "oapi-mcp-gen-runtime";
import pg from "pg";

/** A pool of connections to the catalogue's database; a connection lost while idle is reported to `lost`. */
export function openPool(settings: Omit<PoolSettings, "name">, lost: (error: Error) => void): pg.Pool {
  return openPostgresPool(pg.Pool, { ...settings, name: "oapi-mcp-gen search" }, lost);
}

/** Runs `work` on a connection checked out of the pool, one lost meanwhile reported to `lost` (the runtime's rule). */
export function withConnection<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, lost?: (error: Error) => void): Promise<T> {
  return withPostgresConnection<pg.PoolClient, T>(pool, work, lost);
}
