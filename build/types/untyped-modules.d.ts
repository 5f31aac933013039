// Minimal types for the few dependencies that ship none; only what this project calls.
declare module 'spdx-satisfies' {
  export default function satisfies(expression: string, approved: string[]): boolean;
}
declare module 'spdx-expression-parse' {
  export default function parse(expression: string): unknown;
}
declare module '@11ty/eleventy' {
  export default class Eleventy {
    constructor(input: string, output: string, options?: { quietMode?: boolean; configPath?: string | false; config?: (cfg: never) => void });
    write(): Promise<unknown>;
  }
}
