/** The SDK's version (package.json's), sent as `User-Agent: a2e-sdk-typescript/<version>`. */
export const VERSION = "0.1.0";

/** The User-Agent of every request. */
export const userAgent = `a2e-sdk-typescript/${VERSION}`;
