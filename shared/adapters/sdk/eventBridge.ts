// The part of the EventBridge client the events adapter uses. eventBridgeEvents.ts imports this module
// dynamically; a dynamic import keeps every export of its target, so naming only these lets esbuild drop the rest.
export { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
