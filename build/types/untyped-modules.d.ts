// Minimal types for the few dependencies that ship none; only what this project calls.
declare module 'spdx-satisfies' {
  export default function satisfies(expression: string, approved: string[]): boolean;
}
declare module 'spdx-expression-parse' {
  export default function parse(expression: string): unknown;
}
declare module '@11ty/eleventy' {
  export default class Eleventy {
    constructor(
      input: string,
      output: string,
      options?: { quietMode?: boolean; configPath?: string | false; config?: (cfg: never) => void },
    );
    write(): Promise<unknown>;
    logger: unknown;
  }
}
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: {
      method?: string;
      path?: string;
      body?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
    }[];
  }
  export default function autocannon(options: Options): Promise<Result>;
}
