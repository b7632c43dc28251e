/** The part of the WebAssembly JavaScript API the sandbox uses (Node has it; TypeScript's ES libraries do not declare it). */
declare namespace WebAssembly {
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
  }
}
