/** The SDK's version (package.json's), sent as `User-Agent: a2e-sdk-typescript/<version>`. */
export declare const VERSION = "0.1.0";
/** The User-Agent of every request. */
export declare const userAgent = "a2e-sdk-typescript/0.1.0";
