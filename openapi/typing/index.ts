/** The input openapi-typescript types: a document with its cycles broken, enums named and prototype keys kept. */
export { enumValuesOfType } from "./enum-types.js";
export { typingInput } from "./typing-input.js";
