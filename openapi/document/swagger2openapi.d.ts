/** The part of swagger2openapi's API this project uses. */
declare module "swagger2openapi" {
  interface ConvertOptions {
    patch?: boolean;
    warnOnly?: boolean;
    direct?: boolean;
    resolve?: boolean;
    text?: string;
  }
  interface ConvertResult {
    openapi: Record<string, unknown>;
  }
  const swagger2openapi: {
    convertObj(swagger: unknown, options: ConvertOptions): Promise<ConvertResult>;
  };
  export default swagger2openapi;
}
