/** Debian's Chromium, never a downloaded browser; the flags keep it off the (closed) network. */
export declare const chromiumLaunch: { executablePath: string; args: string[] }
