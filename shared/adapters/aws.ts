import { config, requireSettings } from '#shared/config/config';
import { runFenced, setDefaultPorts, type Ports } from './ports';
import { FUNCTION_WIRING, type FunctionName, type PortsOf, requiredSettingsOf } from './functionWiring';

/** The AWS implementation of each port a function's wiring lists: exactly those, no more, no fewer. */
export type PortFactories<F extends FunctionName> = { [P in PortsOf<F>]: () => Ports[P] };

/**
 * Every Lambda entry point is wrapped in this, naming its function: the AWS implementations of the
 * ports its wiring lists (shared/adapters/functionWiring.ts) become lazy defaults on the first
 * invocation, unless the local server or a test installed others, and each invocation may reach
 * only those ports. In Lambda the settings the wiring needs are checked when the module loads. The factories come from the handler so that a bundle carries only the SDKs of
 * its own ports (sqsQueue.ts, eventBridgeEvents.ts, payments.ts); a missing or extra one does not compile.
 */
export function withPorts<F extends FunctionName, H extends (...args: never[]) => unknown>(
  name: F,
  factories: PortFactories<F>,
  handler: H,
): H {
  const wired = FUNCTION_WIRING[name].ports as readonly PortsOf<F>[];
  // At cold start (module scope): a Lambda missing a setting its wiring needs fails here, naming it.
  if (config().inLambda) requireSettings(requiredSettingsOf(name));
  let registered = false;
  return ((...args: Parameters<H>) => {
    if (!registered) {
      setDefaultPorts(Object.fromEntries(wired.map((port) => [port, factories[port]])));
      registered = true;
    }
    return runFenced(name, wired, () => handler(...args));
  }) as H;
}
