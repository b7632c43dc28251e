/** The TypeScript types of the operations, made by openapi-typescript. */

export { operationTypes } from "./operation-types.js";
