/**
 * What the local runtime would have used in AWS, counted as it runs: API Gateway requests, and each
 * Lambda invocation by the function the stack deploys for it (API groups, the authorizer, the stream,
 * the queue consumers, the schedules) with its duration. The bench's cost suite reads it before and
 * after an operation; the queues count their own SQS requests and the bench the events published.
 */
export interface FunctionUsage {
  invocations: number;
  /** Sum of the invocations' durations. */
  ms: number;
}

export class UsageMeter {
  apiRequests = 0;
  readonly functions = new Map<string, FunctionUsage>();

  /** Runs one invocation of `functionName` and adds its duration, whether it returns or throws. */
  async invoke<T>(functionName: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      const usage = this.functions.get(functionName) ?? { invocations: 0, ms: 0 };
      usage.invocations += 1;
      usage.ms += performance.now() - started;
      this.functions.set(functionName, usage);
    }
  }

  snapshot(): { apiRequests: number; functions: Map<string, FunctionUsage> } {
    return {
      apiRequests: this.apiRequests,
      functions: new Map([...this.functions].map(([name, usage]) => [name, { ...usage }])),
    };
  }
}

/** One per process: the local server and the runtime's consumers and schedules add to it. */
export const usageMeter = new UsageMeter();
