// The Node.js APIs the SDK uses beyond the web platform's (fetch, AbortSignal, timers): the global
// `crypto` needs Node.js 19, and the SDK supports 18; webhook signatures need an HMAC, which Web Crypto
// only offers asynchronously. Declared here so that typescript is the only development dependency.
declare module "node:crypto" {
  export function randomUUID(): string;
  export interface Hmac {
    update(data: string | Uint8Array): Hmac;
    digest(encoding: "hex"): string;
  }
  export function createHmac(algorithm: "sha256", key: string): Hmac;
  export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}
