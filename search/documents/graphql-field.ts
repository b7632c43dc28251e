import { isJsonObject } from "../../openapi/document/index.js";
import type { OperationModel } from "../../openapi/model/index.js";

/** The `x-graphql` extension a GraphQL field read as an operation carries (see graphql-document.ts). */
export interface GraphqlField {
  /** The operation a client sends, with the field's arguments as variables. */
  query: string;
  arguments: string[];
  /** `query`, `mutation` or `subscription`. */
  operationType: string;
}

/** What an operation read from a GraphQL schema carries, or undefined for an OpenAPI operation. */
export function graphqlField(operation: OperationModel): GraphqlField | undefined {
  const field = operation.declared["x-graphql"];
  if (!isJsonObject(field) || typeof field.query !== "string") return undefined;
  const names = Array.isArray(field.arguments) ? field.arguments.filter((name): name is string => typeof name === "string") : [];
  return { query: field.query, arguments: names, operationType: typeof field.operationType === "string" ? field.operationType : "query" };
}
