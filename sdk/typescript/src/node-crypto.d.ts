// The one Node.js API the SDK uses beyond the web platform's (fetch, AbortSignal, timers): the global
// `crypto` needs Node.js 19, and the SDK supports 18. Declared here so that typescript is the only
// development dependency.
declare module "node:crypto" {
  export function randomUUID(): string;
}
